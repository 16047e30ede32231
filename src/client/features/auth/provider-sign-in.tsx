import type { ComponentType } from 'react'
import { runtimeConfig } from '@/client/lib/runtime-config'

let Buttons: ComponentType | undefined

/**
 * Loads the sign-in with the server's providers (provider-buttons.tsx) where it has some: the
 * routes that show it (/login, /register) wait for this before they render, on the server and in
 * the browser, so that the browser takes over the server's HTML as it is. Most servers have none,
 * and their visitors never load that code.
 */
export async function loadProviderSignIn(): Promise<void> {
  if (runtimeConfig().providers.length > 0) Buttons ??= (await import('./provider-buttons')).default
}

/** "Continue with {name}" for each provider (once `loadProviderSignIn` has run); nothing without any. */
export function ProviderSignIn() {
  return Buttons && runtimeConfig().providers.length > 0 ? <Buttons /> : null
}
