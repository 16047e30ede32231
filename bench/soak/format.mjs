// How the soak prints its figures.
import { round } from '../lib.mjs'

export const mb = (bytes) => round(bytes / 1024 ** 2, 1)
export const fmt = (value, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '–')
