import { useStore } from '@nanostores/react'
import { useSyncExternalStore } from 'react'
import { Button } from '@/client/components/ui/button'
import { practiceMessages } from './messages'

/**
 * "Listen": the word read out by the browser's speech synthesis, in the word's language. The
 * button shows only where the browser has a voice for that language (voices load late: the list
 * is followed through `voiceschanged`).
 */

let voices: readonly SpeechSynthesisVoice[] = []
const none: readonly SpeechSynthesisVoice[] = []

function subscribe(changed: () => void): () => void {
  if (typeof speechSynthesis === 'undefined') return () => undefined
  const read = () => {
    voices = speechSynthesis.getVoices()
    changed()
  }
  read()
  speechSynthesis.addEventListener('voiceschanged', read)
  return () => speechSynthesis.removeEventListener('voiceschanged', read)
}

/** The browser's best voice for a language (`en`): its default one if it has it. */
function useVoice(language: string): SpeechSynthesisVoice | undefined {
  const list = useSyncExternalStore(subscribe, () => voices, () => none)
  const fitting = list.filter((voice) => voice.lang.toLowerCase().split(/[-_]/)[0] === language.toLowerCase())
  return fitting.find((voice) => voice.default) ?? fitting[0]
}

export function ListenButton({ text, language }: { text: string; language: string }) {
  const t = useStore(practiceMessages)
  const voice = useVoice(language)
  if (!voice) return null
  const speak = () => {
    const utterance = new SpeechSynthesisUtterance(text)
    utterance.voice = voice
    utterance.lang = voice.lang
    speechSynthesis.cancel()
    speechSynthesis.speak(utterance)
  }
  return (
    <Button variant="outline" size="sm" onClick={speak}>
      {t.listen}
    </Button>
  )
}
