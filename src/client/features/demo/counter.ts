import { atom } from 'nanostores'

/** Client state shared by the two shared-state demo pages. */
export const counter = atom(0)
