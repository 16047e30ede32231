import { useStore } from '@nanostores/react'
import type { CsvProblem, CsvRefusal } from '@/shared/csv'
import { format } from '@/client/lib/i18n'
import { skillMessages } from '@/client/components/skills/messages'
import { csvImportMessages } from './messages'

type Messages = ReturnType<typeof csvImportMessages.get>

/**
 * A refused row as shown: a dry run's come with their problems; those an import's error names
 * (`fields["line 12"]`) with the server's English reason only.
 */
export type ShownRefusal = Pick<CsvRefusal, 'line' | 'reason'> & { problems?: readonly CsvProblem[] }

/** A problem of a row in the interface language. */
function problemText(
  problem: CsvProblem,
  t: Messages,
  skills: ReturnType<typeof skillMessages.get>,
  formats: ReturnType<typeof format.get>,
): string {
  switch (problem.code) {
    case 'unreadable':
      return t.unreadableRow({ detail: problem.detail })
    case 'columnCount':
      return t.columnCount({ expected: problem.expected, found: problem.found })
    case 'empty':
    case 'nul':
    case 'invalid':
      return t[problem.code]({ column: problem.column })
    case 'tooLong':
      return t.tooLong({ column: problem.column, max: problem.max })
    case 'notOneOf':
      return t.notOneOf({ column: problem.column, values: problem.values.join(', ') })
    case 'unknownLevel':
      return t.unknownLevel({ value: problem.value })
    case 'notPosition':
      return t.notPosition({ column: problem.column, max: formats.number(problem.max) })
    case 'statementExists':
      return t.statementExists({ level: problem.level, skill: skills[problem.skill] })
    case 'cellFull':
      return t.cellFull({ level: problem.level, skill: skills[problem.skill], max: problem.max })
    case 'sameAsLine':
      return t.sameAsLine({ line: formats.number(problem.line) })
    case 'wordOfLevel':
      return t.wordOfLevel({ level: problem.level })
  }
}

/**
 * The rows of a CSV file an import refuses (or skips), each with its line and why: a dry run's in
 * the interface language, an import's error in the server's English. `caption` names the table
 * ("Refused rows" unless told).
 */
export function RefusedRows({ refused, caption }: { refused: readonly ShownRefusal[]; caption?: string }) {
  const t = useStore(csvImportMessages)
  const skills = useStore(skillMessages)
  const formats = useStore(format)
  return (
    <div className="max-h-72 overflow-auto rounded-lg border">
      <table className="w-full table-fixed text-sm">
        <caption className="sr-only">{caption ?? t.refusedCaption}</caption>
        <thead className="sticky top-0 border-b bg-muted text-left">
          <tr>
            <th scope="col" className="w-20 px-3 py-2 font-medium">
              {t.line}
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              {t.reason}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y">
          {refused.map((row) => (
            <tr key={`${row.line}:${row.reason}`}>
              <td className="px-3 py-2 align-top font-medium tabular-nums">{formats.number(row.line)}</td>
              {row.problems ? (
                <td className="px-3 py-2 wrap-anywhere">
                  {row.problems.map((problem) => problemText(problem, t, skills, formats)).join(' ')}
                </td>
              ) : (
                // An import's error says why in English only.
                <td className="px-3 py-2 wrap-anywhere" lang="en">
                  {row.reason}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
