import { useStore } from '@nanostores/react'
import { useSyncExternalStore } from 'react'
import { Button } from '@/client/components/ui/button'
import { practiceMessages } from './messages'

/**
 * "Listen": the word read out by the browser's speech synthesis, in the word's language. The
 * button shows only where the browser has a voice for that language (voices load late: the list
 * is followed through `voiceschanged`).
 */

interface Voices {
  list: readonly SpeechSynthesisVoice[]
  /** Whether the list is known: it had voices, changed, or stayed empty for a while (none, then). */
  known: boolean
}

/** How long an empty list may still be filling (Chromium fills it after the first read). */
const VOICES_WAIT_MS = 1500

let voices: Voices = { list: [], known: false }
const none: Voices = { list: [], known: false }

function subscribe(changed: () => void): () => void {
  if (typeof speechSynthesis === 'undefined') {
    if (!voices.known) voices = { list: [], known: true }
    return () => undefined
  }
  const read = (known: boolean) => {
    const list = speechSynthesis.getVoices()
    voices = { list, known: voices.known || known || list.length > 0 }
    changed()
  }
  const onChange = () => read(true)
  read(false)
  const wait = setTimeout(() => read(true), VOICES_WAIT_MS)
  speechSynthesis.addEventListener('voiceschanged', onChange)
  return () => {
    clearTimeout(wait)
    speechSynthesis.removeEventListener('voiceschanged', onChange)
  }
}

/**
 * The browser's best voice for a language (`en`): its default one if it has it; `known` false
 * while the browser may still be loading its voices.
 */
export function useVoice(language: string): { voice: SpeechSynthesisVoice | undefined; known: boolean } {
  const { list, known } = useSyncExternalStore(subscribe, () => voices, () => none)
  const fitting = list.filter((voice) => voice.lang.toLowerCase().split(/[-_]/)[0] === language.toLowerCase())
  const voice = fitting.find((each) => each.default) ?? fitting[0]
  return { voice, known: known || voice !== undefined }
}

/** Says `text` with `voice`, cutting off what was being said. */
export function speak(text: string, voice: SpeechSynthesisVoice) {
  const utterance = new SpeechSynthesisUtterance(text)
  utterance.voice = voice
  utterance.lang = voice.lang
  speechSynthesis.cancel()
  speechSynthesis.speak(utterance)
}

export function ListenButton({ text, language }: { text: string; language: string }) {
  const t = useStore(practiceMessages)
  const { voice } = useVoice(language)
  if (!voice) return null
  return (
    <Button variant="outline" size="sm" onClick={() => speak(text, voice)}>
      {t.listen}
    </Button>
  )
}
