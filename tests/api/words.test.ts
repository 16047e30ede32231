import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditPage } from '@/shared/audit-log'
import type { LanguageLevel } from '@/shared/levels'
import { LEARNABLE_LANGUAGES } from '@/shared/profile'
import type { Word, WordImportResult, WordPage } from '@/shared/words'
import { type AdminWorld, startAdminWorld } from '../helpers/accounts'
import type { Client } from '../helpers/auth-client'
import { databaseTargets } from '../helpers/database'
import { allLevels, createLevel } from '../helpers/levels'
import { expectApiError, expectJson } from '../helpers/server'

/* A level's words: administrators add, change, delete, export and import them (CSV). */

const header = 'language,text,translation_en,translation_ru,example,part_of_speech'

describe.each(databaseTargets())('words on %s', (target) => {
  let world: AdminWorld
  let levels: Record<string, LanguageLevel>
  beforeAll(async () => {
    world = await startAdminWorld(target, 'words')
    levels = Object.fromEntries((await allLevels(world.visitor)).map((level) => [level.code, level]))
  })
  afterAll(async () => {
    await world.stop()
  })

  const words = async (levelId: number, query = '') =>
    expectJson<WordPage>(await world.admin.request('GET', `/api/language-levels/${levelId}/words${query}`))
  const importFile = (client: Client, levelId: number, body: BodyInit, dryRun: boolean, type = 'text/csv; charset=utf-8') =>
    client.request('POST', `/api/language-levels/${levelId}/words/csv${dryRun ? '?dryRun=true' : ''}`, undefined, {
      body,
      headers: { Origin: client.server.url, 'Content-Type': type, Cookie: client.cookieHeader() },
    })
  const sample = { language: 'en', text: 'umbrella', translationEn: 'a thing that keeps the rain off', translationRu: 'зонт', example: null, partOfSpeech: 'noun' }

  it('starts with the English starter words at A1 and A2', async () => {
    expect((await words(levels.A1?.id ?? 0)).total).toBeGreaterThanOrEqual(75)
    expect((await words(levels.A2?.id ?? 0)).total).toBeGreaterThanOrEqual(75)
    expect((await words(levels.B1?.id ?? 0)).total).toBe(0)
    const hello = (await words(levels.A1?.id ?? 0, '?q=HELLO')).items
    expect(hello.map((word) => [word.text, word.translationRu, word.partOfSpeech])).toEqual([['hello', 'привет', 'interjection']])
  })

  it('lets administrators only write or read words', async () => {
    const id = levels.B1?.id ?? 0
    for (const [client, status, code] of [[world.visitor, 401, 'unauthenticated'], [world.learner, 403, 'forbidden']] as const) {
      await expectApiError(await client.request('GET', `/api/language-levels/${id}/words`), status, code)
      await expectApiError(await client.request('POST', `/api/language-levels/${id}/words`, sample), status, code)
      await expectApiError(await client.request('GET', `/api/language-levels/${id}/words/csv`), status, code)
      await expectApiError(await importFile(client, id, `${header}\r\nen,x,y,z,,\r\n`, false), status, code)
      await expectApiError(await client.request('PATCH', '/api/words/1', { version: 1, text: 'x' }), status, code)
      await expectApiError(await client.request('DELETE', '/api/words/1'), status, code)
    }
    expect((await words(id)).total).toBe(0)
  })

  it('adds, changes (with the version read) and deletes a word, each audited', async () => {
    const id = levels.B1?.id ?? 0
    const created = await expectJson<Word>(await world.admin.request('POST', `/api/language-levels/${id}/words`, sample), 201)
    expect(created).toMatchObject({ ...sample, levelId: id, version: 1 })
    const duplicate = await expectApiError(await world.admin.request('POST', `/api/language-levels/${id}/words`, { ...sample, text: 'UMBRELLA' }), 409, 'conflict')
    expect(Object.keys(duplicate.fields ?? {})).toEqual(['text'])
    await expectApiError(await world.admin.request('POST', '/api/language-levels/999999/words', sample), 404, 'not_found')
    const changed = await expectJson<Word>(await world.admin.request('PATCH', `/api/words/${created.id}`, { version: 1, example: 'Take an umbrella.' }))
    expect(changed).toMatchObject({ example: 'Take an umbrella.', version: 2 })
    await expectApiError(await world.admin.request('PATCH', `/api/words/${created.id}`, { version: 1, text: 'brolly' }), 409, 'conflict')
    expect((await world.admin.request('DELETE', `/api/words/${created.id}`)).status).toBe(204)
    await expectApiError(await world.admin.request('DELETE', `/api/words/${created.id}`), 404, 'not_found')
    const audit = await expectJson<AuditPage>(await world.admin.request('GET', '/api/audit-log?pageSize=10'))
    expect(audit.items.filter((entry) => entry.targetId === String(created.id)).map((entry) => entry.action)).toEqual(['word.delete', 'word.update', 'word.create'])
  })

  it('exports a level as CSV that imports back unchanged', async () => {
    const id = levels.A1?.id ?? 0
    const response = await world.admin.request('GET', `/api/language-levels/${id}/words/csv`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    const file = await response.text()
    expect(file.split('\r\n')[0]).toBe(header)
    expect(file).toContain('en,hello,a word you say when you meet someone,привет,"Hello, my name is Anna.",interjection')
    const result = await expectJson<WordImportResult>(await importFile(world.admin, id, file, false))
    expect(result).toMatchObject({ created: 0, updated: 0, refused: [] })
    expect(result.unchanged).toBe(result.rows)
  })

  it('writes a field a spreadsheet would run as a formula behind a quote mark, and reads it back as it was', async () => {
    const level = await createLevel(world.admin, { code: 'CSVF' })
    const formulas = { ...sample, text: '-ing', translationEn: '=HYPERLINK("http://evil.test","click")', translationRu: "'=2+2", example: '@SUM(A1)' }
    await expectJson<Word>(await world.admin.request('POST', `/api/language-levels/${level.id}/words`, formulas), 201)
    const file = await (await world.admin.request('GET', `/api/language-levels/${level.id}/words/csv`)).text()
    expect(file.split('\r\n')[1]).toBe(`en,'-ing,"'=HYPERLINK(""http://evil.test"",""click"")",''=2+2,'@SUM(A1),${sample.partOfSpeech}`)
    const result = await expectJson<WordImportResult>(await importFile(world.admin, level.id, file, false))
    expect(result).toMatchObject({ rows: 1, unchanged: 1, created: 0, updated: 0 })
  })

  it('checks a file on a dry run, listing every refused row; writes nothing unless every row is good', async () => {
    const level = await createLevel(world.admin, { code: 'CSV1' })
    const file = [
      header,
      'en,kettle,a pot for boiling water,чайник,"She put the kettle on, then sat down.",noun',
      'en,hello,a greeting,привет,,interjection', // a word of A1
      'en,spoon,"a tool for eating soup",ложка,,',
      'xx,bad,language,неверно,,noun',
      'en,,no text,пусто,,noun',
      'en,Kettle,the same again,чайник,,noun',
      'en,fork,too,few',
      '',
    ].join('\n')
    const dry = await expectJson<WordImportResult>(await importFile(world.admin, level.id, file, true))
    expect(dry).toMatchObject({ dryRun: true, rows: 7, created: 2 })
    expect(dry.refused.map((row) => row.line)).toEqual([3, 5, 6, 7, 8])
    // Each problem as data, for the admin page to say in its language, and all in English.
    expect(dry.refused).toEqual([
      { line: 3, reason: 'Already a word of level A1.', problems: [{ code: 'wordOfLevel', level: 'A1' }] },
      {
        line: 5,
        reason: `language must be one of ${LEARNABLE_LANGUAGES.join(', ')}.`,
        problems: [{ code: 'notOneOf', column: 'language', values: [...LEARNABLE_LANGUAGES] }],
      },
      { line: 6, reason: 'text is empty.', problems: [{ code: 'empty', column: 'text' }] },
      { line: 7, reason: 'The same word as line 2.', problems: [{ code: 'sameAsLine', line: 2 }] },
      { line: 8, reason: 'Expected 6 columns, found 4.', problems: [{ code: 'columnCount', expected: 6, found: 4 }] },
    ])
    const refused = await expectApiError(await importFile(world.admin, level.id, file, false), 400, 'validation_failed')
    expect(Object.keys(refused.fields ?? {})).toEqual(['line 3', 'line 5', 'line 6', 'line 7', 'line 8'])
    expect((await words(level.id)).total).toBe(0)

    const good = file.split('\n').filter((_, index) => [0, 1, 3].includes(index)).join('\r\n')
    expect(await expectJson<WordImportResult>(await importFile(world.admin, level.id, good, false))).toMatchObject({ dryRun: false, rows: 2, created: 2, refused: [] })
    expect((await words(level.id)).items.map((word) => [word.text, word.example, word.partOfSpeech])).toEqual([
      ['kettle', 'She put the kettle on, then sat down.', 'noun'],
      ['spoon', null, null],
    ])
    // The same rows with a new translation: updated.
    const changed = good.replace('ложка', 'ложечка')
    expect(await expectJson<WordImportResult>(await importFile(world.admin, level.id, changed, false))).toMatchObject({ created: 0, updated: 1, unchanged: 1 })
  })

  it('refuses a file that is not UTF-8 CSV with its header', async () => {
    const id = levels.B2?.id ?? 0
    const latin1 = Buffer.concat([Buffer.from(`${header}\nen,caf`), Buffer.from([0xe9]), Buffer.from(',coffee shop,кафе,,noun\n')])
    const notUtf8 = await expectApiError(await importFile(world.admin, id, latin1, true), 400, 'bad_request')
    expect(notUtf8.message).toBe('The file is not UTF-8 text (line 2): save it as "CSV UTF-8" and send it again.')
    await expectApiError(await importFile(world.admin, id, 'text,language\nx,en\n', true), 400, 'bad_request')
    await expectApiError(await importFile(world.admin, id, `${header}\n`, true, 'application/json'), 415, 'unsupported_media_type')
    await expectApiError(await importFile(world.admin, 999_999, `${header}\n`, true), 404, 'not_found')
  })

  it('reads CRLF, LF and CR line ends alike, names a refused row by its own line, and refuses a row with NUL, not the file', async () => {
    const level = await createLevel(world.admin, { code: 'ENDS' })
    const dryRun = async (file: string) => expectJson<WordImportResult>(await importFile(world.admin, level.id, file, true))
    const colander = 'en,colander,a bowl with holes,дуршлаг,,noun'
    // A quoted field over two lines (a CRLF inside) is lines 3 and 4: the rows after it are 5 and on.
    const trivet = 'en,trivet,"a stand for a hot pot,\r\nor a kettle",подставка,,noun'
    expect((await dryRun([header, colander, trivet, 'xx,tongs,a tool to pick up food,щипцы,,noun', ''].join('\r\n'))).refused).toMatchObject([
      { line: 5, problems: [{ code: 'notOneOf', column: 'language' }] },
    ])
    expect((await dryRun([header, colander, trivet, 'en,"tongs"x,a,b,,noun', ''].join('\r\n'))).refused).toMatchObject([
      { line: 5, problems: [{ code: 'unreadable' }] },
    ])
    // A header ending in CRLF, rows in LF or CR: each row is one.
    const tongs = 'en,tongs,a tool to pick up food,щипцы,,noun'
    expect(await dryRun(`${header}\r\n${colander}\n${tongs}\r${trivet.replace('\r\n', ' ')}\n`)).toMatchObject({ rows: 3, created: 3, refused: [] })
    // NUL in a field refuses its row, naming the column, as the statements' file does.
    expect(await dryRun([header, colander, 'en,tongs,a tool to pick up food,щип\u0000цы,,noun'].join('\n'))).toEqual({
      dryRun: true,
      rows: 2,
      created: 1,
      updated: 0,
      unchanged: 0,
      refused: [{ line: 3, reason: 'translation_ru contains the NUL character.', problems: [{ code: 'nul', column: 'translation_ru' }] }],
    })
  })

  it('imports 10,000 rows at once', { timeout: 120_000 }, async () => {
    const level = await createLevel(world.admin, { code: 'BULK' })
    const rows = Array.from({ length: 10_000 }, (_, i) => `de,Wort ${i},word number ${i},слово ${i},"Das ist Wort ${i}, bitte.",noun`)
    const file = `\ufeff${[header, ...rows].join('\r\n')}\r\n`
    expect(await expectJson<WordImportResult>(await importFile(world.admin, level.id, file, true))).toMatchObject({ rows: 10_000, created: 10_000, refused: [] })
    expect(await expectJson<WordImportResult>(await importFile(world.admin, level.id, file, false))).toMatchObject({ rows: 10_000, created: 10_000 })
    expect((await words(level.id, '?pageSize=1')).total).toBe(10_000)
  })

  it('deletes a level’s words with the level', async () => {
    const level = await createLevel(world.admin, { code: 'GONE' })
    const created = await expectJson<Word>(await world.admin.request('POST', `/api/language-levels/${level.id}/words`, { ...sample, text: 'ephemeral' }), 201)
    expect((await world.admin.request('DELETE', `/api/language-levels/${level.id}`)).status).toBe(204)
    await expectApiError(await world.admin.request('GET', `/api/language-levels/${level.id}/words`), 404, 'not_found')
    await expectApiError(await world.admin.request('PATCH', `/api/words/${created.id}`, { version: 1, text: 'x' }), 404, 'not_found')
  })
})
