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

export function mounted(part: 'shell' | 'page') {
  if (waitingFor.size === 0 || !waitingFor.delete(part) || waitingFor.size > 0) return
  document.documentElement.dataset.app = 'started'
  takeEarlyInput()
}
