import { spawn } from 'node:child_process'
import { projectRoot } from './server.js'

/** Runs `npm run cli -- …` (tsx on the sources) and returns its exit code and output. */
export function cli(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
      cwd: projectRoot,
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', ...env },
    })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.on('close', (code) => resolve({ code, output }))
  })
}
