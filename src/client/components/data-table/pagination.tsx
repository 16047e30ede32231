import { useStore } from '@nanostores/react'
import { type ReactNode, type SVGProps, useId } from 'react'
import { Button } from '@/client/components/ui/button'
import { ChevronRightIcon, Icon } from '@/client/components/ui/icons'
import { Tooltip } from '@/client/components/ui/tooltip'
import { format } from '@/client/lib/i18n'
import { dataTableMessages } from './messages'

/**
 * Moves between pages of a server-paged list: where we are ("21–40 of 75", "Page 2 of 4"), the
 * first, previous, next and last pages, and optionally how many rows a page has.
 */
export function Pagination({
  label,
  page,
  pageSize,
  total,
  onPage,
  pageSizes,
  onPageSize,
}: {
  label: string
  page: number
  pageSize: number
  total: number
  onPage: (page: number) => void
  pageSizes?: readonly number[]
  onPageSize?: (size: number) => void
}) {
  const t = useStore(dataTableMessages)
  const formats = useStore(format)
  const sizeId = useId()
  const pages = Math.max(1, Math.ceil(total / pageSize))
  const from = total === 0 ? 0 : (page - 1) * pageSize + 1
  const to = Math.min(total, page * pageSize)
  const n = (value: number) => formats.number(value)

  const step = (target: number, text: string, icon: ReactNode) => (
    <Tooltip label={text}>
      <Button
        variant="outline"
        size="icon"
        className="size-9"
        aria-label={text}
        disabled={target < 1 || target > pages || target === page}
        onClick={() => onPage(target)}
      >
        {icon}
      </Button>
    </Tooltip>
  )

  return (
    <nav aria-label={label} className="flex flex-wrap items-center justify-between gap-x-6 gap-y-3 text-sm">
      <p className="text-muted-foreground">{t.range({ from: n(from), to: n(to), total: n(total) })}</p>
      <div className="flex flex-wrap items-center gap-x-6 gap-y-3">
        {pageSizes && onPageSize && (
          <div className="flex items-center gap-2">
            <label htmlFor={sizeId} className="text-muted-foreground">
              {t.rowsPerPage}
            </label>
            <select
              id={sizeId}
              value={pageSize}
              onChange={(event) => onPageSize(Number(event.target.value))}
              className="h-9 rounded-md border border-input bg-background px-2"
            >
              {pageSizes.map((size) => (
                <option key={size} value={size}>
                  {n(size)}
                </option>
              ))}
            </select>
          </div>
        )}
        <div className="flex items-center gap-1">
          {step(1, t.firstPage, <ChevronsLeftIcon className="size-4" />)}
          {step(page - 1, t.previousPage, <ChevronLeftIcon className="size-4" />)}
          <span className="min-w-28 px-2 text-center whitespace-nowrap" aria-live="polite">
            {t.pageOf({ page: n(Math.min(page, pages)), pages: n(pages) })}
          </span>
          {step(page + 1, t.nextPage, <ChevronRightIcon className="size-4" />)}
          {step(pages, t.lastPage, <ChevronsRightIcon className="size-4" />)}
        </div>
      </div>
    </nav>
  )
}

const ChevronLeftIcon = (props: SVGProps<SVGSVGElement>) => (
  <Icon {...props}>
    <path d="m15 18-6-6 6-6" />
  </Icon>
)

const ChevronsLeftIcon = (props: SVGProps<SVGSVGElement>) => (
  <Icon {...props}>
    <path d="m11 17-5-5 5-5M18 17l-5-5 5-5" />
  </Icon>
)

const ChevronsRightIcon = (props: SVGProps<SVGSVGElement>) => (
  <Icon {...props}>
    <path d="m13 17 5-5-5-5M6 17l5-5-5-5" />
  </Icon>
)
