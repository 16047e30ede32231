import { useEffect, useId, useState } from 'react'
import { Input } from '@/client/components/ui/field'
import { SearchIcon } from '@/client/components/ui/icons'

/** How long typing must pause before the search runs. */
const SEARCH_DEBOUNCE_MS = 300

/**
 * A search field whose value lives elsewhere (the URL): typing updates it after a pause, Enter at
 * once; a value changed from outside (back button) shows in the field.
 */
export function SearchBox({
  label,
  placeholder,
  value,
  maxLength,
  onSearch,
}: {
  label: string
  placeholder?: string
  value: string
  maxLength?: number
  onSearch: (value: string) => void
}) {
  const id = useId()
  const [text, setText] = useState(value)
  const [shown, setShown] = useState(value)
  if (value !== shown) {
    setShown(value)
    // Keep what is being typed ("b2 " while the URL says "b2").
    if (value !== text.trim()) setText(value)
  }

  useEffect(() => {
    if (text.trim() === value) return
    const timer = setTimeout(() => onSearch(text.trim()), SEARCH_DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [text, value, onSearch])

  return (
    <div className="grid gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <div className="relative">
        <SearchIcon className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" />
        <Input
          id={id}
          type="search"
          value={text}
          placeholder={placeholder}
          maxLength={maxLength}
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') onSearch(text.trim())
          }}
          className="pl-9"
        />
      </div>
    </div>
  )
}
