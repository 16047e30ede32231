import { useStore } from '@nanostores/react'
import type { ComponentProps } from 'react'
import { partsOfSpeech } from '@/shared/words'
import { Select } from '@/client/components/ui/select'
import { partOfSpeechMessages } from './messages'

/** A select of the parts of speech, "Not given" (the empty value) first. */
export function PartOfSpeechSelect(props: Omit<ComponentProps<'select'>, 'children'>) {
  const pos = useStore(partOfSpeechMessages)
  return (
    <Select {...props}>
      <option value="">{pos.none}</option>
      {partsOfSpeech.map((part) => (
        <option key={part} value={part}>
          {pos[part]}
        </option>
      ))}
    </Select>
  )
}
