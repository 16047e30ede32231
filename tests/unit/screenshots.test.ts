import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { SCREENSHOT_MODES, SCREENSHOTS } from '../../scripts/screenshot-list.mjs'

const root = path.resolve(import.meta.dirname, '../..')
const readme = readFileSync(path.join(root, 'README.md'), 'utf8')

describe('the README screenshots (npm run screenshots)', () => {
  for (const { name, title } of SCREENSHOTS) {
    for (const mode of SCREENSHOT_MODES) {
      const file = `docs/screenshots/${name}-${mode}.png`
      it(`${file} is there and the README shows it as "${title}, ${mode}"`, () => {
        expect(existsSync(path.join(root, file))).toBe(true)
        expect(readme).toContain(`![${title}, ${mode}](${file})`)
      })
    }
  }
})
