import { useStore } from '@nanostores/react'
import { type ComponentProps, type ReactNode, createElement, useEffect, useMemo, useRef, useSyncExternalStore } from 'react'
import { Icon } from '@/client/components/ui/icons'
import {
  CARD_FIELD_HIDDEN_TAGS,
  CARD_FIELD_MAX_DEPTH,
  SOUND_SRC_ATTRIBUTE,
  SOUND_TAG,
  fieldText,
  isCardFieldTag,
  isMediaUrl,
} from '@/shared/card-field'
import { cardFieldMessages } from './messages'

/**
 * A card field of the learner's own words (an import's cleaned HTML, shared/card-field.ts) drawn as
 * React elements, never as HTML: the browser's DOMParser reads it into an inert document (no script
 * runs, nothing loads) and only the shared subset is drawn from it, checked again here as if the
 * stored HTML were hostile — any other element is its text, an image or a sound only from the app's
 * own media URLs.
 *
 * Where there is no DOMParser (the server's render, and the browser's hydration of it, which must
 * draw the same) it shows the field's plain text, then the browser draws the field.
 */

interface CardFieldProps extends Omit<ComponentProps<'div'>, 'children' | 'dangerouslySetInnerHTML'> {
  /** The field's cleaned HTML (`CleanField.html`). */
  html: string
}

export function CardField({ html, ...props }: CardFieldProps) {
  const canParse = useSyncExternalStore(subscribeToNothing, hasDomParser, noDomParser)
  const content = useMemo(() => (canParse ? fromHtml(html) : fromText(fieldText(html))), [canParse, html])
  return <div {...props}>{content}</div>
}

const subscribeToNothing = () => () => {}
const hasDomParser = () => typeof DOMParser !== 'undefined'
const noDomParser = () => false

const XHTML = 'http://www.w3.org/1999/xhtml'

const hidden: ReadonlySet<string> = new Set(CARD_FIELD_HIDDEN_TAGS)

function fromText(text: string): ReactNode[] {
  return text.split('\n').flatMap((line, index) => (index === 0 ? [line] : [<br key={index} />, line]))
}

function fromHtml(html: string): ReactNode[] {
  const body = new DOMParser().parseFromString(html, 'text/html').body
  return children(body, 0)
}

function children(parent: Node, depth: number): ReactNode[] {
  const out: ReactNode[] = []
  parent.childNodes.forEach((node, index) => {
    const drawn = draw(node, depth, index)
    if (drawn !== null && drawn !== '') out.push(drawn)
  })
  return out
}

function draw(node: Node, depth: number, key: number): ReactNode {
  if (node.nodeType === Node.TEXT_NODE) return node.nodeValue
  if (node.nodeType !== Node.ELEMENT_NODE) return null
  const element = node as Element
  const name = element.localName
  if (element.namespaceURI !== XHTML || hidden.has(name)) return null
  if (name === SOUND_TAG) {
    const src = element.getAttribute(SOUND_SRC_ATTRIBUTE)
    return isMediaUrl(src) ? <PlaySound key={key} src={src} /> : null
  }
  if (!isCardFieldTag(name) || depth >= CARD_FIELD_MAX_DEPTH) return textOf(element)
  if (name === 'img') {
    const src = element.getAttribute('src')
    if (!isMediaUrl(src)) return null
    const alt = element.getAttribute('alt') ?? ''
    return <img key={key} src={src} alt={alt} loading="lazy" decoding="async" className="inline-block max-h-64 max-w-full" />
  }
  if (name === 'br') return <br key={key} />
  return createElement(name, { key }, ...children(element, depth + 1))
}

/** The text of an element outside the subset, without what `hidden` elements hold. */
function textOf(node: Node): string {
  if (node.nodeType === Node.TEXT_NODE) return node.nodeValue ?? ''
  if (node.nodeType !== Node.ELEMENT_NODE || hidden.has((node as Element).localName)) return ''
  let text = ''
  node.childNodes.forEach((child) => {
    text += textOf(child)
  })
  return text
}

/** Anki's `[sound:…]`: a button that plays the learner's audio file. */
function PlaySound({ src }: { src: string }) {
  const t = useStore(cardFieldMessages)
  const playing = useRef<HTMLAudioElement | null>(null)
  // A sound stops with its card.
  useEffect(() => () => playing.current?.pause(), [])

  const play = () => {
    playing.current?.pause()
    const audio = new Audio(src)
    playing.current = audio
    // Refused (no sound device, an unplayable file): the button simply plays nothing.
    audio.play().catch(() => undefined)
  }

  return (
    <button
      type="button"
      aria-label={t.playSound}
      title={t.playSound}
      onClick={play}
      className="inline-flex size-8 items-center justify-center rounded-md align-middle hover:bg-muted focus-visible:outline-2 focus-visible:outline-offset-2"
    >
      <Icon className="size-5">
        <path d="M11 5 6 9H2v6h4l5 4V5z" />
        <path d="M15.5 8.5a5 5 0 0 1 0 7M19 5a10 10 0 0 1 0 14" />
      </Icon>
    </button>
  )
}
