import { useStore } from '@nanostores/react'
import type { ImportJob } from '@/shared/imports'
import { ImportStatus } from './import-status'
import { deckImportMessages } from './messages'

/**
 * The learner's imports running or just ended, on `/decks`: each its file and where it is (its
 * progress, what it did, why it failed), for when the import dialog has been closed. Loaded only
 * when there is one to show.
 */
export default function ImportList({ jobs }: { jobs: ImportJob[] }) {
  const t = useStore(deckImportMessages)
  return (
    <section aria-labelledby="recent-imports" className="grid gap-3">
      <h2 id="recent-imports" className="text-lg font-semibold">
        {t.recent}
      </h2>
      <ul className="grid gap-3">
        {jobs.map((job) => (
          <li key={job.id} className="grid gap-2 rounded-xl border bg-card p-4">
            <p className="text-sm break-all text-muted-foreground">{t.fileName({ name: job.fileName })}</p>
            <ImportStatus job={job} />
          </li>
        ))}
      </ul>
    </section>
  )
}
