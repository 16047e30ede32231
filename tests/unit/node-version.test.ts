import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const root = path.join(import.meta.dirname, '../..')
const read = (file: string) => readFileSync(path.join(root, file), 'utf8')
const pkg = JSON.parse(read('package.json')) as { engines: { node: string }; devDependencies: Record<string, string> }

// One Node for development, CI and production (docs/decisions/0030): `.node-version` names it, npm's
// scripts run on the `node` package of that version, the container image is built on it.
describe('the Node version', () => {
  const version = read('.node-version').trim()

  it('is one version of Node 24 LTS, which engines asks for', () => {
    expect(version).toMatch(/^24\.\d+\.\d+$/)
    expect(pkg.engines.node).toBe('>=24')
  })

  it('is the node devDependency that runs the npm scripts', () => {
    expect(pkg.devDependencies.node).toBe(version)
  })

  it('is the image of both stages of the Dockerfile', () => {
    const images = [...read('Dockerfile').matchAll(/^FROM node:(\S+)/gm)].map((match) => match[1])
    expect(images).toEqual([`${version}-bookworm-slim`, `${version}-bookworm-slim`])
  })

  it('runs this test', () => {
    expect(process.versions.node).toBe(version)
  })
})
