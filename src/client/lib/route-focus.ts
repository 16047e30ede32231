import type { AnyRouter } from '@tanstack/react-router'
import { type RefObject, useLayoutEffect } from 'react'

/**
 * Where focus goes when the page changes under it (docs/decisions/0008-focus-after-navigation.md).
 *
 * A real page load starts the reader at the top of the new document; a client-side navigation
 * replaces the content under the focused link or button, and focus would fall to the document.
 * So:
 * - after every navigation that changes the path (not the first load, and not a change of search or
 *   hash only: a table's sort or page keeps focus where it is), focus goes to the new page's main
 *   heading, the one `PageHeading`, which a screen reader reads out as it takes focus;
 * - when the element with focus in the page's content is removed (a form giving way to "Check your
 *   email", a loading state giving way to the page, a page giving way to an error screen), focus
 *   goes to the page heading too, instead of to the document;
 * - a page still loading has no heading yet: the main landmark holds focus meanwhile, and the
 *   heading takes it as it mounts, unless the user has put focus somewhere else by then.
 */

/** The page heading on screen: the `<h1>` of the page in `<main>`. */
let heading: HTMLElement | null = null
/** Focus belongs to a page heading that has not mounted yet. */
let pending = false
/** The element that last took focus, and whether it was in the page's content. */
let lastFocused: { element: Element; inContent: boolean } | null = null

function main(): HTMLElement | null {
  return document.querySelector('main')
}

/** Focus is on nothing a user chose: the document, or the main landmark standing in for the heading. */
function adrift(): boolean {
  const active = document.activeElement
  return !active || active === document.body || active === main()
}

function take(element: HTMLElement) {
  pending = false
  // The router restores or resets the scroll position itself (back and forward keep theirs).
  element.focus({ preventScroll: true })
}

/** Focus to the page heading, or to the main landmark until the heading mounts. */
function toHeading() {
  if (heading?.isConnected) {
    take(heading)
  } else {
    pending = true
    main()?.focus({ preventScroll: true })
  }
}

/** Starts the focus management: after navigations (router events) and when content is replaced. */
export function manageFocus(router: AnyRouter): () => void {
  const onFocusIn = (event: FocusEvent) => {
    const content = main()
    if (!(event.target instanceof Element)) return
    lastFocused = { element: event.target, inContent: Boolean(content?.contains(event.target)) }
    // Whatever a user (or a page's own autofocused field) focuses meanwhile wins over a pending heading.
    if (event.target !== content) pending = false
  }
  document.addEventListener('focusin', onFocusIn)

  const unsubscribe = router.subscribe('onRendered', ({ fromLocation, pathChanged }) => {
    if (!fromLocation || !pathChanged) return
    const active = document.activeElement
    const content = main()
    // The new page put focus into its content itself (an autofocused field): it stays there.
    if (active && content && active !== content && active !== heading && content.contains(active)) return
    toHeading()
  })

  // Removing the focused element moves focus to the document without any event; the DOM change is.
  const observer = new MutationObserver(() => {
    const active = document.activeElement
    if (active && active !== document.body) return
    if (!lastFocused?.inContent || lastFocused.element.isConnected) return
    lastFocused = null
    toHeading()
  })
  observer.observe(document.body, { childList: true, subtree: true })

  return () => {
    document.removeEventListener('focusin', onFocusIn)
    unsubscribe()
    observer.disconnect()
  }
}

/** Registers the page's main heading; it takes focus on mount when focus is waiting for it. */
export function usePageHeadingFocus(ref: RefObject<HTMLElement | null>) {
  useLayoutEffect(() => {
    const element = ref.current
    if (!element) return
    heading = element
    if (pending && adrift()) take(element)
    return () => {
      if (heading === element) heading = null
    }
  }, [ref])
}

/** Moves focus to the page heading, e.g. when what had focus is gone (a deleted row's button). */
export function focusPageHeading() {
  if (heading?.isConnected) take(heading)
}
