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

const MIN_PASSWORD_SCORE = 2

/**
 * How much of a password (and of each of the user's own words) is scored. zxcvbn's time grows
 * quickly with length (a 128-character password costs ~15–40 ms of the event loop, a 32-character
 * one ~1 ms), and the check runs before better-auth looks at the token or the current password:
 * anyone may ask for it. 32 characters that score well make a strong password whatever follows.
 */
export const SCORED_CHARACTERS = 32

/** Whether a password is too common or too easy to guess, also given the user's own name and email. */
export function isWeakPassword(password: string, userInputs: readonly unknown[] = []): boolean {
  const inputs = userInputs
    .filter((value): value is string => typeof value === 'string' && value !== '')
    .map((value) => value.slice(0, 2 * SCORED_CHARACTERS))
  return zxcvbn.check(password.slice(0, SCORED_CHARACTERS), inputs).score < MIN_PASSWORD_SCORE
}
