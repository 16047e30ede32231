import { spawn } from 'node:child_process'
import { projectRoot } from './server'

/** Runs the built CLI (`node dist/server/cli.js …`, as `npm run cli -- …` does) and returns its exit code and output. */
export function cli(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, ['dist/server/cli.js', ...args], {
      cwd: projectRoot,
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', ...env },
    })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.on('close', (code) => resolve({ code, output }))
  })
}
