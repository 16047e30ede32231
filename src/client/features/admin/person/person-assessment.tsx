import { useStore } from '@nanostores/react'
import type { AssessmentResult } from '@/shared/can-do'
import { Card } from '@/client/components/ui/card'
import { format } from '@/client/lib/i18n'
import { skillMessages } from '@/client/components/skills/messages'
import { personMessages } from './messages'

/**
 * The person's latest self-assessment (docs/product.md §10): when it was taken, the overall level
 * and each skill's, as the learner's own "Your skills" card reads them; or that there is none.
 */
export function AssessmentCard({ result }: { result: AssessmentResult | null }) {
  const t = useStore(personMessages)
  const words = useStore(skillMessages)
  const formats = useStore(format)
  if (!result) {
    return (
      <Card title={t.assessmentTitle}>
        <p className="text-sm text-muted-foreground">{t.noAssessment}</p>
      </Card>
    )
  }
  const below = words.below({ level: result.firstLevelCode ?? '' })
  const rows = result.skills.map((entry) => [words[entry.skill], entry.levelCode ?? below] as const)
  return (
    <Card title={t.assessmentTitle} lead={t.assessmentLead}>
      <p className="font-semibold">{words.overall({ level: result.overall ?? below })}</p>
      <p className="mt-1 text-sm text-muted-foreground">
        <time dateTime={result.takenAt}>
          {words.taken({ date: formats.time(new Date(result.takenAt), { dateStyle: 'medium' }) })}
        </time>
      </p>
      <table className="mt-3 w-full text-sm">
        <caption className="sr-only">{t.skillLevels}</caption>
        <tbody className="divide-y">
          {rows.map(([skill, level]) => (
            <tr key={skill}>
              <th scope="row" className="py-1.5 pr-4 text-left font-normal text-muted-foreground">
                {skill}
              </th>
              <td className="py-1.5 text-right font-mono font-medium">{level}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  )
}
