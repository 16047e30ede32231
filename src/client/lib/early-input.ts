/**
 * What a person typed into a page the server rendered, the form they sent, the buttons they pressed
 * and the search shortcut (Ctrl+K), before the app took the page over: index.html's inline script
 * keeps them (a form sent then would post to the page and come back empty, a button or the
 * shortcut would do nothing), and the app gets them once it has started. The forms' own code sets
 * their fields when it attaches to them, which would wipe what was typed: the values are put back
 * as typing would (the events the fields' code hears), then each kept press is made again, once,
 * the shortcut too, and the kept form is sent.
 */
interface EarlyInput {
  typed: Map<EventTarget, { value: string; checked: boolean }>
  presses: HTMLButtonElement[]
  shortcut?: Pick<KeyboardEventInit, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey'>
  submit?: { form: HTMLFormElement; submitter: HTMLElement | null }
}

declare global {
  interface Window {
    linguaEarly?: EarlyInput
  }
}

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement

const isField = (target: EventTarget): target is Field =>
  target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement

function putBack(field: Field, { value, checked }: { value: string; checked: boolean }) {
  if (field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio')) {
    if (field.checked !== checked) field.click()
    return
  }
  // A select keeps its choice through the app's start, but the app has not heard of it: React
  // reports a select's `change` whatever its value was.
  if (field instanceof HTMLSelectElement) {
    field.value = value
    field.dispatchEvent(new Event('change', { bubbles: true }))
    return
  }
  if (field.value === value) return
  // The prototype's setter: React's own record of the value must see the change to report it.
  Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), 'value')?.set?.call(field, value)
  field.dispatchEvent(new Event('input', { bubbles: true }))
}

/** Gives the app what was typed, pressed and sent before it started; call once it has (`data-app="started"`). */
export function takeEarlyInput() {
  const early = window.linguaEarly
  if (!early) return
  delete window.linguaEarly
  for (const [target, typed] of early.typed) {
    if (isField(target) && target.isConnected) putBack(target, typed)
  }
  for (const button of early.presses) {
    if (button.isConnected && !button.disabled) button.click()
  }
  // Where the app listens for it (features/command-palette/palette-host.tsx).
  if (early.shortcut) window.dispatchEvent(new KeyboardEvent('keydown', { ...early.shortcut, bubbles: true, cancelable: true }))
  const { form, submitter } = early.submit ?? {}
  if (form?.isConnected) form.requestSubmit(submitter?.isConnected ? submitter : null)
}
