import { useStore } from '@nanostores/react'
import { useForm } from 'react-hook-form'
import type { DemoEcho, DemoMessage } from '@/shared/demo'
import { Alert } from '@/client/components/ui/alert'
import { Button } from '@/client/components/ui/button'
import { Field, Input, Textarea } from '@/client/components/ui/field'
import { api } from '@/client/lib/api'
import { errorMessage } from '@/client/lib/error-message'
import { formResolver } from '@/client/lib/form-resolver'
import { ApiRequestError } from '@/client/lib/http-error'
import { apiErrorMessages, validationMessages } from '@/client/lib/messages'
import { toast } from '@/client/lib/toast'
import { useAction } from '@/client/lib/use-action'
import { Page } from '@/client/components/page'
import { postMessages } from './messages'

const fieldNames = ['name', 'email', 'message'] as const

export function FetchingPostPage() {
  const t = useStore(postMessages)
  const errorTexts = useStore(apiErrorMessages)
  const form = useForm<DemoMessage>({
    resolver: formResolver(() => import('@/shared/demo').then((schemas) => schemas.demoMessageSchema)),
    defaultValues: { name: '', email: '', message: '' },
  })
  const send = useAction((values: DemoMessage) => api<DemoEcho>('/demo/messages', { method: 'POST', json: values }), {
    onSuccess: () => toast({ title: postMessages.get().sent, variant: 'success' }),
    onError: (error) => {
      // The server's field errors land on the fields, like the browser's own; it writes English,
      // so the field says it in the interface language.
      if (error instanceof ApiRequestError && error.fields) {
        for (const name of fieldNames) {
          if (error.fields[name]?.[0]) form.setError(name, { message: validationMessages.get().invalid })
        }
      }
    },
  })
  const { errors } = form.formState

  return (
    <Page title={t.title} lead={t.intro}>
      <form method="post"
        noValidate
        onSubmit={(event) => void form.handleSubmit((values) => send.mutate(values))(event)}
        className="grid gap-4 rounded-xl border bg-card p-6"
      >
        {/* jscpd:ignore-start: a contact form asks for a name and an email as registration does */}
        <Field label={t.name} error={errors.name?.message}>
          {(control) => <Input {...control} autoComplete="name" {...form.register('name')} />}
        </Field>
        <Field label={t.email} error={errors.email?.message}>
          {(control) => (
            <Input {...control} type="email" autoComplete="email" {...form.register('email')} />
          )}
        </Field>
        {/* jscpd:ignore-end */}
        <Field label={t.message} error={errors.message?.message}>
          {(control) => <Textarea {...control} rows={4} {...form.register('message')} />}
        </Field>
        {send.isError && !(send.error instanceof ApiRequestError && send.error.fields) && (
          <Alert variant="error">{errorMessage(send.error, errorTexts)}</Alert>
        )}
        <div>
          <Button type="submit" disabled={send.isPending}>
            {send.isPending ? t.sending : t.submit}
          </Button>
        </div>
      </form>
      {send.data && (
        <section aria-labelledby="answer-heading" className="mt-6 rounded-xl border bg-card p-6">
          <h2 id="answer-heading" className="font-semibold">
            {t.answerTitle}
          </h2>
          <dl className="mt-4 grid gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]">
            {fieldNames.map((name) => (
              <div key={name} className="contents">
                <dt className="text-sm text-muted-foreground">{t[name]}</dt>
                <dd className="text-sm break-words">{send.data.received[name]}</dd>
              </div>
            ))}
          </dl>
        </section>
      )}
    </Page>
  )
}
