import { takeEarlyInput } from './early-input'

/**
 * `data-app="started"` on the root element once the app has taken the page over: from then on its
 * controls answer (tests and tools wait for it), and what was typed or sent before is theirs
 * (lib/early-input.ts). Two parts must have mounted for that: the app's shell (main.tsx) and the
 * page, which shows itself by its heading (components/ui/page-heading.tsx). They are apart because
 * a page can be taken over in passes: a part of it whose code is still loading (a lazy route's
 * component) is resumed when it arrives, and its forms do nothing until then.
 */
const waitingFor = new Set<'shell' | 'page'>(['shell', 'page'])
const afterStarting: (() => void)[] = []

export function mounted(part: 'shell' | 'page') {
  if (waitingFor.size === 0 || !waitingFor.delete(part) || waitingFor.size > 0) return
  document.documentElement.dataset.app = 'started'
  takeEarlyInput()
  for (const task of afterStarting.splice(0)) task()
}

/**
 * Runs `task` once the app has started, at once if it has. For a change from outside the page
 * (another tab's choice): while React takes the server's HTML over, a store must keep the value the
 * HTML was rendered with, or the two differ and React throws the page's HTML away (error 418).
 */
export function afterStart(task: () => void) {
  if (waitingFor.size === 0) task()
  else afterStarting.push(task)
}
