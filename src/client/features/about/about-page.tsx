import { useStore } from '@nanostores/react'
import { runtimeConfig } from '@/client/lib/runtime-config'
import { Page } from '@/client/components/page'
import { aboutMessages } from './messages'

const bands = ['basic', 'independent', 'proficient'] as const

export function AboutPage() {
  const t = useStore(aboutMessages)
  return (
    <Page title={t.title} lead={t.intro}>
      <section aria-labelledby="cefr-heading" className="space-y-4">
        <h2 id="cefr-heading" className="text-xl font-semibold">
          {t.cefrTitle}
        </h2>
        <p>{t.cefrBody}</p>
        <ul className="list-disc space-y-2 pl-6">
          {bands.map((band) => (
            <li key={band}>{t[band]}</li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="version-heading" className="mt-10">
        <h2 id="version-heading" className="text-xl font-semibold">
          {t.versionTitle}
        </h2>
        <p className="mt-2 font-mono text-sm" data-testid="app-version">
          {runtimeConfig().version}
        </p>
      </section>
    </Page>
  )
}
