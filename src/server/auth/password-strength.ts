import { ZxcvbnFactory } from '@zxcvbn-ts/core'
import * as common from '@zxcvbn-ts/language-common'

/**
 * zxcvbn, offline: 40 000 common passwords, keyboard walks, repeats, sequences, dates. Scores run
 * from 0 (too guessable) to 4; below 2 is refused.
 */
const zxcvbn = new ZxcvbnFactory({
  dictionary: { ...common.dictionary },
  graphs: common.adjacencyGraphs,
})

export const MIN_PASSWORD_SCORE = 2

/** Whether a password is too common or too easy to guess, also given the user's own name and email. */
export function isWeakPassword(password: string, userInputs: readonly unknown[] = []): boolean {
  const inputs = userInputs.filter((value): value is string => typeof value === 'string' && value !== '')
  return zxcvbn.check(password, inputs).score < MIN_PASSWORD_SCORE
}
