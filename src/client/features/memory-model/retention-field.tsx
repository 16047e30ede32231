import { useStore } from '@nanostores/react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { MemoryModelState } from '@/shared/memory-model'
import { DESIRED_RETENTION_MAX, DESIRED_RETENTION_MIN } from '@/shared/practice'
import { practiceSettingsQuery, savePracticeSettings, usePracticeCache } from '@/client/api/practice-progress'
import { Field } from '@/client/components/ui/field'
import { Select } from '@/client/components/ui/select'
import { errorMessage } from '@/client/lib/error-message'
import { format } from '@/client/lib/i18n'
import { apiErrorMessages } from '@/client/lib/messages'
import { toast } from '@/client/lib/toast'
import { memoryModelKey, memoryModelQuery } from './api'
import { memoryModelMessages } from './messages'

/** 0.80, 0.81, … 0.97: the retentions a learner may choose, in hundredths (no float drift). */
const choices = Array.from({ length: Math.round((DESIRED_RETENTION_MAX - DESIRED_RETENTION_MIN) * 100) + 1 }, (_, i) => (Math.round(DESIRED_RETENTION_MIN * 100) + i) / 100)

/** The estimate for `retention`, when the server has one (the fixed points and the learner's own). */
const reviewsPerDayAt = (state: MemoryModelState | undefined, retention: number) =>
  state?.estimates.find((estimate) => Math.abs(estimate.retention - retention) < 0.0005)?.reviewsPerDay

/**
 * "Desired retention" (PRODUCT §13): 0.80–0.97 in steps of 0.01, with the reviews a day it is
 * estimated to cost (the option's, where the server estimated it, and the chosen one's under the
 * field). Saved as it is chosen, with the learner's other settings as they are (PUT
 * /api/me/practice/settings), so that it can sit inside the account's "Practice" form without a
 * button of its own.
 */
export function RetentionField() {
  const t = useStore(memoryModelMessages)
  const errors = useStore(apiErrorMessages)
  const formats = useStore(format)
  const client = useQueryClient()
  const { settingsSaved } = usePracticeCache()
  const settings = useQuery(practiceSettingsQuery())
  const model = useQuery(memoryModelQuery())
  const save = useMutation({
    // One save after another, in the order chosen: the field stays enabled while a save is under
    // way (disabling it took focus from the select to the document, so a second arrow key went
    // nowhere), and the last retention chosen is the one the server keeps.
    scope: { id: 'desired-retention' },
    mutationFn: (desiredRetention: number) => {
      const current = settings.data
      if (!current) throw new Error('settings not read')
      const { newWordsPerDay, dailyGoal, timeZone } = current
      return savePracticeSettings({ newWordsPerDay, dailyGoal, timeZone, desiredRetention })
    },
    onSuccess: async (saved) => {
      settingsSaved(saved)
      await client.invalidateQueries({ queryKey: memoryModelKey })
      toast({ title: memoryModelMessages.get().retentionSaved, variant: 'success' })
    },
  })
  // The retention chosen last, held by the field itself: set in the change's own event, so that
  // React, which puts a controlled select back to its value once the event ends, puts it back to
  // this one. The mutation's state arrives a moment later; a second arrow key in between moved on
  // from the value before, and the same retention was saved twice.
  const [picked, setPicked] = useState<number>()
  const saved = settings.data?.desiredRetention
  const chosen = save.isPending && picked !== undefined ? picked : saved
  const fixed = (value: number) => formats.number(value, { minimumFractionDigits: 2, maximumFractionDigits: 2 })
  const perDay = chosen === undefined ? undefined : reviewsPerDayAt(model.data, chosen)
  const hint = save.isPending ? t.retentionSaving : perDay === undefined ? t.retentionHint : `${t.reviewsPerDay({ count: perDay })}. ${t.retentionHint}`

  return (
    <Field label={t.retention} hint={hint} {...(save.isError ? { error: errorMessage(save.error, errors) } : {})}>
      {(control) => (
        <Select
          {...control}
          value={chosen === undefined ? '' : String(chosen)}
          disabled={!settings.data}
          onChange={(event) => {
            const value = Number(event.target.value)
            setPicked(value)
            save.mutate(value)
          }}
        >
          {chosen === undefined && <option value="" />}
          {choices.map((value) => {
            const cost = reviewsPerDayAt(model.data, value)
            return (
              <option key={value} value={String(value)}>
                {cost === undefined ? fixed(value) : `${fixed(value)} (${t.reviewsPerDay({ count: cost })})`}
              </option>
            )
          })}
        </Select>
      )}
    </Field>
  )
}
