import { takeEarlyInput } from './early-input'

/**
 * `data-app="started"` on the root element once the app has taken the page over: from then on its
 * controls answer (tests and tools wait for it), and what was typed or sent before is theirs
 * (lib/early-input.ts). Two parts must have mounted for that: the app's shell (main.tsx) and the
 * page, which shows itself by its heading (components/ui/page-heading.tsx). They are apart because
 * React takes a page the server rendered over in passes: the shell first, then the router's
 * Suspense boundary around the route's content, whose forms do nothing until then.
 */
const waitingFor = new Set<'shell' | 'page'>(['shell', 'page'])

export function mounted(part: 'shell' | 'page') {
  if (waitingFor.size === 0 || !waitingFor.delete(part) || waitingFor.size > 0) return
  document.documentElement.dataset.app = 'started'
  takeEarlyInput()
}
