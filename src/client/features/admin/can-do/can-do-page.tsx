import { useStore } from '@nanostores/react'
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { Suspense, lazy, useCallback, useState } from 'react'
import { type CanDoStatement, SKILLS, type Skill } from '@/shared/can-do'
import { orderedLevelsQuery } from '@/client/api/levels'
import { ConfirmDialog } from '@/client/components/confirm-dialog'
import { SelectFilter } from '@/client/components/data-table/select-filter'
import { TableToolbar } from '@/client/components/data-table/table-toolbar'
import { Button, buttonClass } from '@/client/components/ui/button'
import { EmptyState } from '@/client/components/ui/empty-state'
import { ErrorAlert } from '@/client/components/ui/error-alert'
import { PlusIcon } from '@/client/components/ui/icons'
import { uiMessages } from '@/client/components/ui/messages'
import { PageHeader } from '@/client/components/page'
import { Skeleton } from '@/client/components/ui/skeleton'
import { errorMessage } from '@/client/lib/error-message'
import { ApiRequestError } from '@/client/lib/http-error'
import { apiErrorMessages } from '@/client/lib/messages'
import { skillMessages } from '@/client/components/skills/messages'
import { usePageTitle } from '@/client/lib/page-title'
import { focusPageHeading } from '@/client/lib/route-focus'
import { runtimeConfig } from '@/client/lib/runtime-config'
import { toast } from '@/client/lib/toast'
import { csvPath, statementListQuery, statementsApi, useStatementsCache } from './api'
import { QUERY_MAX } from './can-do-search'
import { canDoAdminMessages } from './messages'
import type { StatementDialogTarget } from './statement-dialog'
import { StatementList } from './statement-list'

// The dialogs (Radix's dialog, the form and its schema) load when first opened.
const StatementDialog = lazy(() => import('./statement-dialog'))
const ImportDialog = lazy(() => import('./import-dialog'))

const route = getRouteApi('/admin/can-do')

/**
 * `/admin/can-do` (admin): the can-do statements by level and skill, filtered and searched (the
 * URL keeps both), added and edited in a dialog, reordered within their cell, deleted after a
 * confirmation, and exported or imported as a CSV file.
 */
export function CanDoPage() {
  const t = useStore(canDoAdminMessages)
  const ui = useStore(uiMessages)
  const skills = useStore(skillMessages)
  const errors = useStore(apiErrorMessages)
  const statements = useStatementsCache()
  const search = route.useSearch()
  const navigate = route.useNavigate()
  usePageTitle(t.title)

  const levels = useQuery(orderedLevelsQuery())
  const params = { levelId: search.level, skill: search.skill, q: search.q || undefined }
  const query = useQuery({ ...statementListQuery(params), placeholderData: keepPreviousData })
  const [editing, setEditing] = useState<StatementDialogTarget | null>(null)
  const [importing, setImporting] = useState(false)
  const [deleting, setDeleting] = useState<CanDoStatement | null>(null)

  const setSearch = useCallback(
    (patch: Partial<typeof search>, replace = false) =>
      void navigate({ search: (prev) => ({ ...prev, ...patch }), replace }),
    [navigate],
  )
  const onSearch = useCallback((text: string) => setSearch({ q: text }, true), [setSearch])
  const narrowed = search.q !== '' || search.level !== undefined || search.skill !== undefined

  const remove = useMutation({
    mutationFn: async (target: CanDoStatement) => {
      try {
        await statementsApi.remove(target.id)
      } catch (error) {
        // Someone deleted it first: gone all the same.
        if (!(error instanceof ApiRequestError && error.status === 404)) throw error
      }
    },
    onSuccess: async () => {
      toast({ title: canDoAdminMessages.get().deleted, variant: 'success' })
      setDeleting(null)
      await statements.refresh()
      // Its row and buttons are gone: focus goes to the page's heading.
      focusPageHeading()
    },
  })

  const levelOptions = [
    { value: '', label: t.allLevels },
    ...(levels.data ?? []).map((level) => ({ value: String(level.id), label: `${level.code} · ${level.name}` })),
  ]
  const skillOptions = [{ value: '', label: t.allSkills }, ...SKILLS.map((skill) => ({ value: skill, label: skills[skill] }))]
  const list = query.data
  const refreshing = query.isFetching && query.isPlaceholderData

  return (
    <div className="grid min-w-0 gap-8">
      <PageHeader title={t.title} lead={t.lead} className="max-w-3xl">
        <div className="flex flex-wrap gap-2">
          <a href={`${runtimeConfig().apiBaseUrl}${csvPath}`} download className={buttonClass({ variant: 'outline' })}>
            {t.exportCsv}
          </a>
          <Button variant="outline" onClick={() => setImporting(true)}>
            {t.importCsv}
          </Button>
          <Button onClick={() => setEditing({ kind: 'new', levelId: search.level, skill: search.skill })}>
            <PlusIcon className="size-4" />
            {t.newStatement}
          </Button>
        </div>
      </PageHeader>
      <div className="grid grid-cols-1 gap-4">
        <TableToolbar
          search={{ label: t.search, placeholder: t.searchPlaceholder, value: search.q, maxLength: QUERY_MAX, onSearch }}
          hint={
            search.q ? <p className="text-xs text-muted-foreground">{t.reorderHint}</p> : undefined
          }
          filters={
            <fieldset className="grid gap-3 sm:grid-cols-2">
              <legend className="sr-only">{t.filters}</legend>
              <SelectFilter
                label={t.level}
                value={search.level === undefined ? '' : String(search.level)}
                options={levelOptions}
                onChange={(value) => setSearch({ level: value === '' ? undefined : Number(value) })}
              />
              <SelectFilter
                label={t.skill}
                value={search.skill ?? ''}
                options={skillOptions}
                onChange={(value) => setSearch({ skill: value === '' ? undefined : (value as Skill) })}
              />
            </fieldset>
          }
          refreshing={refreshing ? t.refreshing : ''}
          actions={
            <div className="flex flex-wrap items-center gap-3">
              {list && <span className="text-sm text-muted-foreground">{t.count({ count: list.total })}</span>}
              {narrowed && (
                <Button variant="ghost" size="sm" onClick={() => setSearch({ q: '', level: undefined, skill: undefined })}>
                  {t.clearFilters}
                </Button>
              )}
            </div>
          }
        />
        {query.isPending && (
          <div role="status" aria-label={t.loading} className="grid gap-4">
            <Skeleton className="h-48 w-full rounded-xl" />
            <Skeleton className="h-48 w-full rounded-xl" />
          </div>
        )}
        {query.isError && !list && <ErrorAlert error={query.error} onRetry={query.refetch} />}
        {list && list.items.length === 0 && (
          <div className="rounded-xl border bg-card">
            <EmptyState title={narrowed ? ui.noMatch : ui.noData} hint={narrowed ? t.noMatchHint : t.emptyHint} />
          </div>
        )}
        {list && list.items.length > 0 && (
          <div className={refreshing ? 'opacity-60' : undefined}>
            <StatementList
              list={list}
              params={params}
              levels={levels.data ?? []}
              canReorder={!search.q && !refreshing}
              onEdit={(statement) => setEditing({ kind: 'edit', statement })}
              onDelete={setDeleting}
            />
          </div>
        )}
      </div>
      <Suspense fallback={null}>
        {editing && <StatementDialog target={editing} levels={levels.data ?? []} onClose={() => setEditing(null)} />}
        {importing && <ImportDialog onClose={() => setImporting(false)} />}
      </Suspense>
      <ConfirmDialog
        open={deleting !== null}
        title={t.deleteTitle}
        description={
          deleting && (
            <>
              <blockquote lang="en" className="border-l-4 pl-3 break-words">
                {deleting.text.en}
              </blockquote>
              <p className="text-muted-foreground">{t.deleteLead}</p>
            </>
          )
        }
        confirmLabel={t.confirmDelete}
        pendingLabel={t.deleting}
        pending={remove.isPending}
        error={remove.isError ? errorMessage(remove.error, errors) : undefined}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onClose={() => {
          if (remove.isPending) return
          remove.reset()
          setDeleting(null)
        }}
      />
    </div>
  )
}
