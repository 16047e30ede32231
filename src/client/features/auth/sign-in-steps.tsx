import { lazy } from 'react'
import type { SignInMethod } from './sign-in'

/**
 * The steps of `/login` besides the password form — the emailed code, recovery and the second
 * factor — load when chosen, not with the page most visitors use only for its password form. A
 * link to one starts loading it when pointed at or focused (`preloadSignInStep`).
 */
const loaders = {
  code: () => import('./code-sign-in'),
  recovery: () => import('./recovery-request'),
  secondFactor: () => import('./second-factor'),
}

export const CodeSignIn = lazy(async () => ({ default: (await loaders.code()).CodeSignIn }))
export const RecoveryRequest = lazy(async () => ({ default: (await loaders.recovery()).RecoveryRequest }))
export const SecondFactor = lazy(async () => ({ default: (await loaders.secondFactor()).SecondFactor }))

/** Starts loading a step's code ahead of its use; a failure shows when the step renders. */
export function preloadSignInStep(step: Exclude<SignInMethod, 'password'> | 'secondFactor') {
  loaders[step]().catch(() => undefined)
}
