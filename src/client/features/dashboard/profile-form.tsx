import { useStore } from '@nanostores/react'
import { useMemo } from 'react'
import { useForm } from 'react-hook-form'
import type { LanguageLevel } from '@/shared/levels'
import type { LearnerProfile } from '@/shared/profile'
import { Alert } from '@/client/components/ui/alert'
import { Button } from '@/client/components/ui/button'
import { Field } from '@/client/components/ui/field'
import { formResolver } from '@/client/lib/form-resolver'
import { learnableLanguageOptions } from '@/client/lib/language-names'
import { locale } from '@/client/lib/i18n'
import { toast } from '@/client/lib/toast'
import { useFormMutation } from '@/client/lib/use-form-mutation'
import { usePracticeCache } from '@/client/api/practice-progress'
import { saveProfile, useProfileCache } from '@/client/api/profile'
import { dashboardMessages } from './messages'
import type { ProfileFormValues } from './profile-schema'

const selectClass =
  'h-10 w-full rounded-md border border-input bg-background px-3 text-sm aria-[invalid=true]:border-error disabled:opacity-50'

const toId = (value: string) => (value === '' ? null : Number(value))

/** "Language", "Current level", "Target level" and "Save profile" (docs/product.md §7). */
export function ProfileForm({ profile, levels }: { profile: LearnerProfile; levels: LanguageLevel[] }) {
  const t = useStore(dashboardMessages)
  const lang = useStore(locale)
  const profileCache = useProfileCache()
  const { todayChanged } = usePracticeCache()
  const languageNames = useMemo(() => learnableLanguageOptions(lang), [lang])
  // The target may not be below the current level: the levels' order decides (the server checks too).
  const position = useMemo(() => new Map(levels.map((level) => [String(level.id), level.position])), [levels])
  const form = useForm<ProfileFormValues>({
    resolver: formResolver(() => import('./profile-schema').then((schemas) => schemas.profileFormSchema(position))),
    defaultValues: {
      language: profile.language ?? '',
      currentLevelId: profile.currentLevelId === null ? '' : String(profile.currentLevelId),
      targetLevelId: profile.targetLevelId === null ? '' : String(profile.targetLevelId),
    },
  })
  const { mutation, submit, errorText } = useFormMutation(
    form,
    (values) =>
      saveProfile({
        language: values.language === '' ? null : (values.language as LearnerProfile['language']),
        currentLevelId: toId(values.currentLevelId),
        targetLevelId: toId(values.targetLevelId),
      }),
    {
      onSuccess: (saved, values) => {
        profileCache.saved(saved)
        // New words come from the current level and language: today's count changes with them.
        todayChanged()
        form.reset(values)
        toast({ title: dashboardMessages.get().saved, variant: 'success' })
      },
    },
  )
  const { errors } = form.formState
  const levelOptions = levels.map((level) => (
    <option key={level.id} value={String(level.id)}>
      {level.code} — {level.name}
    </option>
  ))

  return (
    <form method="post" noValidate onSubmit={(event) => void submit(event)} className="grid gap-4">
      <Field label={t.language} error={errors.language?.message}>
        {(control) => (
          <select {...control} className={selectClass} {...form.register('language')}>
            <option value="">{t.notChosen}</option>
            {languageNames.map(({ code, name }) => (
              <option key={code} value={code}>
                {name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={t.currentLevel} error={errors.currentLevelId?.message}>
          {(control) => (
            <select {...control} className={selectClass} {...form.register('currentLevelId')}>
              <option value="">{t.notChosen}</option>
              {levelOptions}
            </select>
          )}
        </Field>
        <Field label={t.targetLevel} error={errors.targetLevelId?.message}>
          {(control) => (
            <select {...control} className={selectClass} {...form.register('targetLevelId')}>
              <option value="">{t.notChosen}</option>
              {levelOptions}
            </select>
          )}
        </Field>
      </div>
      {errorText && <Alert variant="error">{errorText}</Alert>}
      <div>
        <Button type="submit" disabled={mutation.isPending}>
          {mutation.isPending ? t.saving : t.saveProfile}
        </Button>
      </div>
    </form>
  )
}
