import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort, waitReady } from '../../scripts/lib/server.mjs'
import { type AdminWorld, startAdminWorld } from '../helpers/accounts'
import { createLevel } from '../helpers/levels'

const nginx = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((file) => existsSync(file))

/**
 * The nginx settings of docs/operations.md ("Example: nginx in front"), without TLS: the stream's
 * events must pass through as they come, not when a buffer fills or the stream ends.
 */
function nginxConfig(folder: string, port: number, upstream: string) {
  return `
worker_processes 1;
pid ${folder}/nginx.pid;
error_log ${folder}/error.log;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${folder}/body;
  proxy_temp_path ${folder}/proxy;
  fastcgi_temp_path ${folder}/fastcgi;
  uwsgi_temp_path ${folder}/uwsgi;
  scgi_temp_path ${folder}/scgi;
  upstream lingua { server ${upstream}; keepalive 32; keepalive_timeout 60s; }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://lingua;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
    }
    location = /api/events {
      proxy_pass http://lingua;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_buffering off;
      proxy_cache off;
      proxy_read_timeout 1h;
      proxy_send_timeout 1h;
    }
  }
}
`
}

describe.runIf(nginx)('the live stream through nginx', () => {
  let world: AdminWorld
  let folder: string
  let proxied: string
  let stopNginx: () => void

  beforeAll(async () => {
    world = await startAdminWorld('pglite', 'live-nginx')
    folder = await mkdtemp(path.join(os.tmpdir(), 'lingua-nginx-'))
    const port = await freePort()
    proxied = `http://127.0.0.1:${port}`
    await writeFile(path.join(folder, 'nginx.conf'), nginxConfig(folder, port, new URL(world.server.url).host))
    const child = spawn(nginx ?? 'nginx', ['-c', path.join(folder, 'nginx.conf'), '-g', 'daemon off;'], { stdio: 'ignore' })
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('exit', (code, signal) => resolve({ code, signal })),
    )
    stopNginx = () => child.kill('SIGQUIT')
    await waitReady({ url: proxied, exited, output: [], spawnedAt: performance.now() }, { timeoutMs: 10_000 })
  })

  afterAll(async () => {
    stopNginx?.()
    await world?.stop()
    await rm(folder, { recursive: true, force: true })
  })

  it('passes each event on as it comes', async () => {
    const stream = await fetch(`${proxied}/api/events`)
    expect(stream.status).toBe(200)
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader()
    const decoder = new TextDecoder()
    let received = ''
    const until = async (text: string) => {
      while (!received.includes(text)) {
        const { value, done } = await reader.read()
        if (done) throw new Error(`the stream ended before ${text}: ${received}`)
        received += decoder.decode(value, { stream: true })
      }
    }
    await until('event: ready')
    // Made on the instance directly: the event reaches the client through nginx, unbuffered.
    const level = await createLevel(world.admin, { code: 'NGX' })
    await until(`"id":${level.id}`)
    const data = /event: levels\ndata: (.+)\n/.exec(received)?.[1]
    expect(JSON.parse(data ?? 'null')).toEqual({ action: 'create', id: level.id })
    await reader.cancel()
  })
})
