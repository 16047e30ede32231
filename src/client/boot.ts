import './styles.css'

/**
 * The page's one script: it starts the app (main.tsx) after the first paint. A page the server
 * rendered already shows its content (docs/decisions/0014); asked for at once, the app's code
 * would share the first moments of a slow connection with that HTML and hold its first paint
 * back. The code is asked for in the frame after the page first painted (its chunks together, as
 * before), or at once in a tab that does not paint (hidden: opened in the background).
 *
 * Nothing else is imported here: a module the app's chunks shared with this one would make them
 * ask for the stylesheet again, which a rendered page holds inline.
 */
let started = false
function start() {
  if (started) return
  started = true
  void import('./main')
}
if (document.visibilityState === 'hidden') start()
else requestAnimationFrame(() => setTimeout(start, 0))
// Hidden before that frame came: no frame comes while it is.
document.addEventListener('visibilitychange', start, { once: true })
