import { useStore } from '@nanostores/react'
import { useQuery } from '@tanstack/react-query'
import { useForm } from 'react-hook-form'
import { type ReactNode, useId } from 'react'
import type { PracticeSettings, PracticeWay } from '@/shared/practice'
import { DAILY_GOAL_MAX, NEW_WORDS_PER_DAY_MAX, practiceWays } from '@/shared/practice'
import { sameTimeZone } from '@/shared/practice-days'
import {
  browserTimeZone,
  practiceSettingsQuery,
  savePracticeSettings,
  usePracticeCache,
  useSyncTimeZone,
} from '@/client/api/practice-progress'
import { FormSubmit } from '@/client/components/forms/form-submit'
import { ErrorAlert } from '@/client/components/ui/error-alert'
import { Field, Input } from '@/client/components/ui/field'
import { Select } from '@/client/components/ui/select'
import { Skeleton } from '@/client/components/ui/skeleton'
import { formResolver } from '@/client/lib/form-resolver'
import { format, locale } from '@/client/lib/i18n'
import { toast } from '@/client/lib/toast'
import { useFormMutation } from '@/client/lib/use-form-mutation'
import { accountMessages } from './messages'
import type { PracticeFormValues } from './practice-schema'
import { Section } from './section'

/**
 * "Practice" (docs/product.md §11, §13): new words per day and the daily goal, the ways to practise,
 * the daily reminder by email and its hour, and the time zone the learner's day follows — the
 * browser's, sent by `useSyncTimeZone` rather than chosen here.
 */
export function PracticeSection({ children }: { children?: ReactNode }) {
  const t = useStore(accountMessages)
  const settings = useQuery(practiceSettingsQuery())
  useSyncTimeZone()
  return (
    <Section title={t.practiceTitle} lead={t.practiceLead}>
      {settings.isError ? (
        <ErrorAlert error={settings.error} onRetry={() => settings.refetch()} />
      ) : settings.data ? (
        // Keyed by the saved settings: a save elsewhere (another tab, the zone sent) resets the form.
        <>
          <PracticeForm key={formKey(settings.data)} settings={settings.data} />
          {/* The desired retention (the memory model's, composed by the route): saved as soon as chosen. */}
          {children && <div className="mt-6 border-t pt-6">{children}</div>}
        </>
      ) : (
        <Skeleton className="h-56 rounded-lg" />
      )}
    </Section>
  )
}

const formKey = (settings: PracticeSettings) =>
  [settings.newWordsPerDay, settings.dailyGoal, settings.timeZone, settings.ways.join(','), settings.reminderEnabled, settings.reminderHour].join('/')

/** "00:00" to "23:00": the reminder's hours, written alike in every language. */
const hours = Array.from({ length: 24 }, (_, hour) => ({ hour, label: `${String(hour).padStart(2, '0')}:00` }))

function PracticeForm({ settings }: { settings: PracticeSettings }) {
  const t = useStore(accountMessages)
  const formats = useStore(format)
  const lang = useStore(locale)
  const { settingsSaved } = usePracticeCache()
  const form = useForm<PracticeFormValues>({
    resolver: formResolver(() => import('./practice-schema').then((schemas) => schemas.practiceFormSchema)),
    defaultValues: {
      newWordsPerDay: settings.newWordsPerDay,
      dailyGoal: settings.dailyGoal,
      ways: settings.ways,
      reminderEnabled: settings.reminderEnabled,
      reminderHour: settings.reminderHour,
    },
  })
  const { mutation, submit, errorText } = useFormMutation(
    form,
    // The stored zone goes back as it is: the browser's is sent on its own (useSyncTimeZone).
    (values) => savePracticeSettings({ ...values, timeZone: settings.timeZone }),
    {
      onSuccess: (saved) => {
        settingsSaved(saved)
        toast({ title: accountMessages.get().saved, variant: 'success' })
      },
    },
  )
  const { errors } = form.formState
  const browser = browserTimeZone()
  const now = formats.time(new Date(), { timeStyle: 'short', timeZone: settings.timeZone })
  const zoneName = (zone: string) => zoneLabel(lang, zone)
  const wayLabels: Record<PracticeWay, string> = {
    flashcard: t.wayFlashcard,
    type: t.wayType,
    choose: t.wayChoose,
    listen: t.wayListen,
    gap: t.wayGap,
  }
  const ids = useId()
  const waysHintId = `${ids}-ways-hint`
  const waysErrorId = `${ids}-ways-error`
  const reminderHintId = `${ids}-reminder-hint`

  return (
    <form method="post" noValidate onSubmit={(event) => void submit(event)} className="grid gap-4">
      <div className="grid items-start gap-4 sm:grid-cols-2">
        <Field label={t.newWordsPerDay} hint={t.newWordsHint({ max: formats.number(NEW_WORDS_PER_DAY_MAX) })} error={errors.newWordsPerDay?.message}>
          {(control) => (
            <Input
              {...control}
              type="number"
              inputMode="numeric"
              min={0}
              max={NEW_WORDS_PER_DAY_MAX}
              step={1}
              {...form.register('newWordsPerDay', { valueAsNumber: true })}
            />
          )}
        </Field>
        <Field label={t.dailyGoal} hint={t.dailyGoalHint({ max: formats.number(DAILY_GOAL_MAX) })} error={errors.dailyGoal?.message}>
          {(control) => (
            <Input
              {...control}
              type="number"
              inputMode="numeric"
              min={1}
              max={DAILY_GOAL_MAX}
              step={1}
              {...form.register('dailyGoal', { valueAsNumber: true })}
            />
          )}
        </Field>
      </div>
      <fieldset className="grid gap-2" aria-describedby={errors.ways ? `${waysHintId} ${waysErrorId}` : waysHintId}>
        <legend className="text-sm font-medium">{t.waysTitle}</legend>
        <p id={waysHintId} className="text-xs text-muted-foreground">
          {t.waysHint}
        </p>
        <div className="grid gap-2 sm:grid-cols-2">
          {practiceWays.map((way) => (
            <label key={way} className="flex items-center gap-3 text-sm">
              <input
                type="checkbox"
                value={way}
                aria-invalid={Boolean(errors.ways)}
                // A refused save focuses the first way (react-hook-form): scrolled to, it stops below
                // the sticky header rather than under it, as the account's sections do.
                className="size-4 shrink-0 scroll-mt-20 accent-(--primary)"
                {...form.register('ways')}
              />
              {wayLabels[way]}
            </label>
          ))}
        </div>
        {errors.ways && (
          <p id={waysErrorId} role="alert" className="text-sm text-error">
            {t.waysRequired}
          </p>
        )}
      </fieldset>
      <div className="grid items-start gap-4 sm:grid-cols-2">
        <div className="flex items-start gap-3 sm:pt-7">
          <input
            id={`${ids}-reminder`}
            type="checkbox"
            aria-describedby={reminderHintId}
            className="mt-0.5 size-4 shrink-0 accent-(--primary)"
            {...form.register('reminderEnabled')}
          />
          <div className="grid gap-1">
            <label htmlFor={`${ids}-reminder`} className="text-sm font-medium">
              {t.reminderEnabled}
            </label>
            <p id={reminderHintId} className="text-xs text-muted-foreground">
              {t.reminderHint}
            </p>
          </div>
        </div>
        <Field label={t.reminderTime} hint={t.reminderTimeHint} error={errors.reminderHour?.message}>
          {(control) => (
            <Select {...control} {...form.register('reminderHour', { valueAsNumber: true })}>
              {hours.map(({ hour, label }) => (
                <option key={hour} value={hour}>
                  {label}
                </option>
              ))}
            </Select>
          )}
        </Field>
      </div>
      <div className="grid gap-1 text-sm">
        <p className="font-medium">{t.timeZone}</p>
        <p>{t.timeZoneNow({ zone: zoneName(settings.timeZone), time: now })}</p>
        <p className="text-muted-foreground">
          {t.timeZoneSource}
          {browser && !sameTimeZone(browser, settings.timeZone) && <> {t.timeZoneBrowser({ zone: zoneName(browser) })}</>}
        </p>
      </div>
      <FormSubmit
        label={t.save}
        pendingLabel={t.saving}
        pending={mutation.isPending}
        error={errorText}
        disabled={!form.formState.isDirty}
      />
    </form>
  )
}

/**
 * A time zone's IANA name, with its name in the interface language when it has one: "Asia/Tokyo
 * (Japan Standard Time)". The generic name ("Central European Time") when there is one, else the
 * current ("Coordinated Universal Time"); a bare offset ("GMT+00:00") adds nothing and is left out.
 */
function zoneLabel(lang: string, zone: string): string {
  const nameOf = (style: 'longGeneric' | 'long') => {
    try {
      return new Intl.DateTimeFormat(lang, { timeZone: zone, timeZoneName: style })
        .formatToParts(new Date())
        .find((part) => part.type === 'timeZoneName')?.value
    } catch {
      return undefined
    }
  }
  const offsetOnly = (name: string | undefined) => !name || /^(GMT|UTC)([+\-−]|$)/.test(name)
  const generic = nameOf('longGeneric')
  const name = offsetOnly(generic) ? nameOf('long') : generic
  return name && !offsetOnly(name) && name !== zone ? `${zone} (${name})` : zone
}
