import { createHash } from 'node:crypto'
import { readFile, rm } from 'node:fs/promises'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Deck, DeckWord } from '@/shared/decks'
import type { ImportJob } from '@/shared/imports'
import { type AdminWorld } from '../helpers/accounts'
import type { Client } from '../helpers/auth-client'
import { hostileBody } from '../helpers/hostile/bodies'
import {
  IMPORTS,
  fieldPart,
  filePart,
  formBody,
  hostileCsvFiles,
  oddImportIds,
  oddMediaHashes,
  refusedUploads,
  smallPackage,
  smallPackageImage,
  unreadableForms,
  uploadShot,
  visitorUploads,
  writeHostilePackages,
} from '../helpers/hostile/imports'
import { hostileSegment, pathOf } from '../helpers/hostile/paths'
import { type HostileRun, hostileTarget as target, startHostileRun } from '../helpers/hostile/run'
import { type Answer, type Shot, type Who, safeMethods, shot } from '../helpers/hostile/shots'
import { writeAnkiPackage } from '../helpers/anki-package'
import { fire } from '../helpers/hostile/fire'
import { expectJson } from '../helpers/server'

/*
 * Hostile input at the learner's imports, media and decks (docs/product.md §12), on a server run as
 * in production (tests/helpers/hostile/run.ts): broken multipart uploads, packages broken on purpose,
 * CSV files with NUL, formulas and huge lines, odd import ids and media hashes, and the deck routes
 * with real and odd ids, huge and mistyped bodies. Never a 5xx or a hang; a refused upload stores
 * nothing (no job, no upload parts); an import that fails stores nothing (no deck, no word, no
 * media). The multipart endpoint and the media route are not reached by hostile-input.test.ts, whose
 * properties are drawn from the OpenAPI document's JSON bodies.
 */

const seed = Number.parseInt(process.env.HOSTILE_SEED ?? '', 10) || Math.floor(Math.random() * 2 ** 31)
const mediaHash = (bytes: Buffer) => createHash('sha256').update(bytes).digest('base64url')
const ended = (job: ImportJob) => job.status === 'done' || job.status === 'failed'

describe('hostile input at the imports, media and decks', () => {
  let run: HostileRun
  let world: AdminWorld
  let check: HostileRun['check']
  let learner: Client
  let deck: Deck
  let word: DeckWord
  let othersDeck: Deck
  /** Where the CSV files go: their words stay out of the deck the deck routes are fired at. */
  let csvDeck: Deck

  /**
   * What the learner holds, read through the API (the embedded database has one process only):
   * decks with their counts, the words of each, imports with their status.
   */
  async function holdings(): Promise<string> {
    const { decks } = await expectJson<{ decks: Deck[] }>(await learner.request('GET', '/api/me/decks'))
    const words = []
    for (const one of decks) words.push(await expectJson<unknown>(await learner.request('GET', `/api/me/decks/${one.id}/words?pageSize=200`)))
    const imports = await expectJson<ImportJob[]>(await learner.request('GET', IMPORTS))
    return JSON.stringify({ decks, words, imports: imports.map((job) => [job.id, job.status]) })
  }

  /** Rows on PostgreSQL (read directly); undefined on the embedded database. */
  async function count(sql: string): Promise<number | undefined> {
    const database = world.server.database
    if (!database) return undefined
    return Number((await database.query<{ n: string }>(sql))[0]?.n)
  }

  /** Waits for every job to end; their ends, in order. */
  async function jobsEnded(ids: string[]): Promise<ImportJob[]> {
    const out: ImportJob[] = []
    for (const id of ids) {
      for (let i = 0; ; i++) {
        const job = await expectJson<ImportJob>(await learner.request('GET', `${IMPORTS}/${id}`))
        if (ended(job)) {
          out.push(job)
          break
        }
        if (i > 600) throw new Error(`import ${id} did not end: ${JSON.stringify(job)}`)
        await sleep(100)
      }
    }
    return out
  }

  /** Checks that collect the ids of the jobs a batch started (202). */
  function started(ids: string[], whys: Map<string, string>) {
    return (s: Shot, answer: Answer) => {
      if (answer.status !== 202) return `answered ${answer.status}, not 202`
      const { id } = JSON.parse(answer.body.toString()) as { id: string }
      ids.push(id)
      whys.set(id, s.why)
      return undefined
    }
  }

  beforeAll(async () => {
    process.stdout.write(`hostile-input-imports: fast-check seed ${seed} (replay with HOSTILE_SEED=${seed}), ${target}\n`)
    run = await startHostileRun(seed)
    ;({ world, check } = run)
    learner = world.learner
    deck = await expectJson<Deck>(await learner.request('POST', '/api/me/decks', { name: 'Mine', language: 'es' }), 201)
    word = await expectJson<DeckWord>(
      await learner.request('POST', `/api/me/decks/${deck.id}/words`, { text: 'hola', translationEn: 'hello', translationRu: 'привет' }),
      201,
    )
    csvDeck = await expectJson<Deck>(await learner.request('POST', '/api/me/decks', { name: 'From files', language: 'es' }), 201)
    const other = await world.signUp(`hostile-imports-other-${target}@example.com`)
    othersDeck = await expectJson<Deck>(await other.request('POST', '/api/me/decks', { name: 'Theirs', language: 'es' }), 201)
  })
  afterAll(() => run?.stop())

  it('refuses multipart uploads without a usable file (no file, file twice or misnamed, an empty one, many or huge fields, no valid deck, not a form) with 4xx, storing nothing', async () => {
    const before = await holdings()
    await check(60, fc.oneof({ weight: 8, arbitrary: refusedUploads }, { weight: 1, arbitrary: visitorUploads }), { invalid: true })
    // A part still being written when the form was refused would show up a moment later.
    await sleep(500)
    expect(await holdings()).toEqual(before)
    expect(await count('select count(*) as n from import_job')).toBeOneOf([0, undefined])
    expect(await count('select count(*) as n from import_upload')).toBeOneOf([0, undefined])
  }, 180_000)

  it('answers odd import ids and media hashes with 404 (401 signed out), in the error shape', async () => {
    const who = fc.constantFrom<Who>('visitor', 'learner', 'admin')
    const arbitrary = fc.oneof(
      fc.tuple(who, oddImportIds).map(([caller, id]) => shot({ who: caller, method: 'GET', target: `${IMPORTS}/${id}`, headers: [], why: 'an odd import id', refused: true })),
      fc.tuple(who, oddMediaHashes).map(([caller, hash]) => shot({ who: caller, method: 'GET', target: `/api/me/media/${hash}`, headers: [], why: 'an odd media hash', refused: true })),
    )
    await check(40, arbitrary, {
      invalid: true,
      onSuccess: (s, answer) => `answered ${answer.status} to ${s.target.slice(0, 100)}: nothing is there to find`,
    })
  }, 120_000)

  /** Uploads each package (16 a batch, run one at a time by the worker) and waits for the jobs' ends. */
  async function importAll(packages: { why: string; bytes: Buffer }[], batches: number): Promise<{ jobs: ImportJob[]; whys: Map<string, string> }> {
    const ids: string[] = []
    const whys = new Map<string, string>()
    const arbitrary = fc
      .tuple(fc.constantFrom(...packages), fc.nat(), fc.constantFrom('deck.apkg', 'collection.colpkg', 'a.csv', '../../x.apkg', 'x'.repeat(300)))
      .map(([pkg, n, name]) => uploadShot(pkg.why, pkg.bytes, name, n % 2 ? { language: 'fr' } : {}, n))
    await check(batches, arbitrary, { invalid: false, onSuccess: started(ids, whys) }, run.main, 120_000)
    return { jobs: await jobsEnded(ids), whys }
  }

  it('fails each broken package as a job (no 5xx), storing no deck, word, media or upload part', async () => {
    const packages = (await writeHostilePackages()).filter((pkg) => pkg.fails)
    const before = await holdings()
    const { jobs, whys } = await importAll(packages, 3)
    for (const job of jobs) {
      expect({ why: whys.get(job.id), status: job.status }).toEqual({ why: whys.get(job.id), status: 'failed' })
      expect(['damaged', 'not_a_package', 'newer_anki', 'too_large'], whys.get(job.id)).toContain(job.error?.code)
    }
    expect((await holdings()).replace(/"imports":.*/, '')).toEqual(before.replace(/"imports":.*/, ''))
    expect((await learner.request('GET', `/api/me/media/${mediaHash(smallPackageImage)}`)).status).toBe(404)
    expect(await count('select count(*) as n from import_upload')).toBeOneOf([0, undefined])
    expect(await count('select count(*) as n from learner_media')).toBeOneOf([0, undefined])
    expect(await count(`select count(*) as n from import_job where status not in ('done', 'failed')`)).toBeOneOf([0, undefined])
  }, 240_000)

  it('imports a package whose hostile parts the reader ignores (../evil entries, WAL mode) as the package it otherwise is, once', async () => {
    const packages = (await writeHostilePackages()).filter((pkg) => !pkg.fails)
    const { jobs, whys } = await importAll(packages, 1)
    for (const job of jobs) expect(job, whys.get(job.id)).toMatchObject({ status: 'done', notes: 2, cards: 2 })
    const { decks } = await expectJson<{ decks: Deck[] }>(await learner.request('GET', '/api/me/decks'))
    // Imported again and again: one deck, its two words once.
    expect(decks.filter((one) => one.name === 'Hostile').map((one) => one.total)).toEqual([2])
    expect(await count('select count(*) as n from import_upload')).toBeOneOf([0, undefined])
  }, 240_000)

  describe('forms the parser cannot read, and clients gone mid-upload', () => {
    // busboy's errors ("Unexpected end of form", "Malformed part header", "Multipart: Boundary not
    // found" thrown by its constructor) are the client's: 400.
    it('refuses a form the parser cannot read with 400, not 500', async () => {
      const answers = []
      for (const [why, body, headers] of unreadableForms(1, 100)) {
        const answer = await fire(run.main, shot({ who: 'learner', method: 'POST', target: IMPORTS, body, headers, why, refused: true }))
        answers.push({ why, status: answer?.status })
      }
      expect(answers.filter((answer) => (answer.status ?? 500) >= 500)).toEqual([])
    })

    // receiveImport writes the parts one after another and, on a failure, waits for the last before
    // it deletes the job: nothing of an abandoned upload stays.
    it.runIf(target === 'postgres')('leaves no job and no upload part when the client goes away mid-upload', async () => {
      const server = world.server
      const boundary = 'gone-mid-upload'
      const body = formBody(boundary, [fieldPart('deckId', String(deck.id)), filePart(Buffer.alloc(4 * 1024 * 1024, 'a'))])
      try {
        for (let i = 0; i < 30; i++) {
          const head = [
            'POST /api/me/imports HTTP/1.1',
            `Host: 127.0.0.1:${server.port}`,
            `Origin: ${server.url}`,
            `Cookie: ${learner.cookieHeader()}`,
            `X-Forwarded-For: 10.250.0.${i}`,
            `Content-Type: multipart/form-data; boundary=${boundary}`,
            `Content-Length: ${body.length}`,
          ].join('\r\n')
          // Just past the first 1 MiB part, then gone at a moment that varies.
          const cut = 1024 * 1024 + 2000 + (i % 10) * 50_000
          await new Promise<void>((resolve) => {
            const socket = net.connect({ host: '127.0.0.1', port: server.port }, () => {
              socket.write(`${head}\r\n\r\n`)
              socket.write(body.subarray(0, cut), () => setTimeout(() => socket.destroy(), i % 5))
            })
            socket.on('close', () => resolve())
            socket.on('error', () => {})
          })
        }
        // Each upload is cleaned up once the server sees its client gone (later on a loaded machine).
        await expect
          .poll(
            async () => ({
              jobs: await count('select count(*) as n from import_job where status = \'uploading\''),
              parts: await count('select count(*) as n from import_upload'),
            }),
            { timeout: 20_000, interval: 250 },
          )
          .toEqual({ jobs: 0, parts: 0 })
      } finally {
        // What the gap left, swept now: the other tests count upload parts.
        await world.server.database?.query(`delete from import_job where status = 'uploading'`)
      }
    }, 60_000)
  })

  // The package's media are stored while it is planned, before the one transaction that writes
  // the rest: refused at that write, the import deletes them again.
  it('stores none of the media of a package refused at its write (100 decks already)', async () => {
    const full = await world.signUp(`hostile-imports-full-${target}@example.com`)
    for (let i = 0; i < 100; i++) expect((await full.request('POST', '/api/me/decks', { name: `Deck ${i}`, language: 'es' })).status).toBe(201)
    const file = path.join(os.tmpdir(), `lingua-hostile-full-${process.pid}.apkg`)
    await writeAnkiPackage(file, smallPackage('anki21b'))
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(await readFile(file))]), 'full.apkg')
    await rm(file, { force: true })
    const response = await full.request('POST', IMPORTS, undefined, { body: form, headers: { Origin: full.origin, Cookie: full.cookieHeader() } })
    const { id } = await expectJson<{ id: string }>(response, 202)
    let job: ImportJob
    do {
      await sleep(100)
      job = await expectJson<ImportJob>(await full.request('GET', `${IMPORTS}/${id}`))
    } while (!ended(job))
    expect(job).toMatchObject({ status: 'failed', error: { code: 'decks_full' } })
    expect((await full.request('GET', `/api/me/media/${mediaHash(smallPackageImage)}`)).status).toBe(404)
  }, 60_000)

  it('imports CSV files with NUL, formulas, huge lines, unclosed quotes and random bytes into one’s deck or refuses them, never a 5xx, never storing NUL', async () => {
    const ids: string[] = []
    const whys = new Map<string, string>()
    const arbitrary = fc
      .tuple(hostileCsvFiles, fc.nat())
      .map(([file, n]) => uploadShot(file.why, file.bytes, 'words.csv', { deckId: String(csvDeck.id) }, n))
    await check(2, arbitrary, { invalid: false, onSuccess: started(ids, whys) }, run.main, 120_000)
    const jobs = await jobsEnded(ids)
    for (const job of jobs) {
      if (job.status === 'failed') expect(job.error?.code, whys.get(job.id)).toBe('damaged')
    }
    const page = await expectJson<{ items: DeckWord[]; total: number }>(await learner.request('GET', `/api/me/decks/${csvDeck.id}/words?pageSize=200`))
    expect(JSON.stringify(page.items)).not.toContain('\\u0000')
    // The export puts a would-be formula behind a quote mark.
    const csv = await (await learner.request('GET', `/api/me/decks/${csvDeck.id}/export.csv`)).text()
    for (const line of csv.split('\n').slice(1)) expect(line, line).not.toMatch(/(^|,)"?[=+@]/)
    // Someone else's deck: the job fails, their deck and this learner's are as they were.
    const intoTheirs = await learner.request('POST', IMPORTS, undefined, {
      body: (() => {
        const form = new FormData()
        form.append('deckId', String(othersDeck.id))
        form.append('file', new Blob(['language,text,translation_en,translation_ru,example,part_of_speech\nes,gato,cat,кот,,\n']), 'w.csv')
        return form
      })(),
      headers: { Origin: learner.origin, Cookie: learner.cookieHeader() },
    })
    const [theirs] = await jobsEnded([(await expectJson<{ id: string }>(intoTheirs, 202)).id])
    expect(theirs).toMatchObject({ status: 'failed', decks: [] })
    expect(await count('select count(*) as n from import_upload')).toBeOneOf([0, undefined])
  }, 240_000)

  it('refuses odd ids, huge and mistyped bodies at the deck routes, writing nothing', async () => {
    const deckOperations = run.operations.filter((o) => o.path.startsWith('/api/me/decks'))
    expect(deckOperations.map((o) => `${o.method} ${o.path}`)).toEqual(
      expect.arrayContaining(['GET /api/me/decks', 'POST /api/me/decks', 'PATCH /api/me/decks/{id}', 'DELETE /api/me/decks/{id}', 'POST /api/me/decks/{id}/words', 'PUT /api/me/decks/{id}/words/{wordId}', 'DELETE /api/me/decks/{id}/words/{wordId}']),
    )
    const who = fc.constantFrom<Who>('visitor', 'learner', 'admin')
    // The learner's own deck and word (where only the body gets a write refused), someone else's deck, or an odd segment.
    const idFor = (name: string) =>
      fc.oneof(
        { weight: 2, arbitrary: fc.constant({ value: String(name === 'wordId' ? word.id : deck.id), own: true }) },
        { weight: 1, arbitrary: fc.constant({ value: String(othersDeck.id), own: false }) },
        { weight: 2, arbitrary: hostileSegment.map((value) => ({ value, own: false })) },
      )
    const arbitrary = fc
      .tuple(who, fc.constantFrom(...deckOperations), fc.boolean())
      .chain(([caller, operation, chunked]) =>
        fc.tuple(fc.constant(caller), fc.constant(operation), hostileBody(operation), idFor('id'), idFor('wordId'), fc.constant(chunked)),
      )
      .map(([caller, operation, body, id, wordId, chunked]) => {
        const ids = { id, wordId }
        const ownPath = operation.pathParams.every((name) => ids[name as keyof typeof ids].own)
        return shot({
          who: caller,
          method: operation.method,
          target: pathOf(operation, (name) => ids[name as keyof typeof ids].value),
          body: body.bytes,
          chunked: chunked && body.bytes.length > 1,
          headers: [],
          why: body.why,
          // Someone else's deck, an odd id or a visitor's or administrator's request: refused whatever the body.
          refused: body.refusedByItself || caller !== 'learner' || (operation.pathParams.length > 0 && !ownPath),
        })
      })
      .filter((s) => s.refused || safeMethods.has(s.method))
    const before = await holdings()
    await check(80, arbitrary, { invalid: true })
    expect(await holdings()).toEqual(before)
  }, 180_000)
})
