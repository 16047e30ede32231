import { createAtom } from '@tanstack/react-store'

/** Client state shared by the two shared-state demo pages. */
export const counter = createAtom(0)
