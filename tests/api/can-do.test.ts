import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditPage } from '@/shared/audit-log'
import {
  type AssessmentProgress,
  type AssessmentState,
  type CanDoSet,
  type CanDoStatement,
  type CanDoStatementList,
  type CsvImportReport,
  SKILLS,
  type SkillProgress,
  type SkillResult,
} from '@/shared/can-do'
import type { StatementInput, StatementOrder, StatementPatch } from '@/shared/can-do-schemas'
import type { LanguageLevel, LevelUsage } from '@/shared/levels'
import type { Overview, PersonDetail } from '@/shared/people'
import { type AdminWorld, startAdminWorld } from '../helpers/accounts'
import type { Client } from '../helpers/auth-client'
import { databaseTargets } from '../helpers/database'
import { allLevels, createLevel } from '../helpers/levels'
import { expectApiError, expectJson } from '../helpers/server'

const ADMIN = '/api/admin/can-do-statements'
const CSV = `${ADMIN}/csv`
const HEADER = 'level,skill,position,text_en,text_ru'

/** Sends a CSV file as the body, as the admin page would (the client's cookies and Origin). */
function sendCsv(client: Client, body: BodyInit, query = '', type = 'text/csv; charset=utf-8') {
  return fetch(`${client.server.url}${CSV}${query}`, {
    method: 'POST',
    headers: { Origin: client.origin, 'Content-Type': type, Cookie: client.cookieHeader() },
    body,
  })
}

describe.each(databaseTargets())('can-do statements and the self-assessment on %s', (target) => {
  let world: AdminWorld
  let other: Client
  let levels: LanguageLevel[]
  beforeAll(async () => {
    world = await startAdminWorld(target, 'can-do')
    other = await world.signUp(`other-can-do-${target}@example.com`)
    levels = await allLevels(world.visitor)
  })
  afterAll(async () => {
    await world.stop()
  })

  const set = async (client: Client, lang = '') => expectJson<CanDoSet>(await client.request('GET', `/api/can-do-statements${lang}`))
  const list = async (query = '') => expectJson<CanDoStatementList>(await world.admin.request('GET', `${ADMIN}${query}`))
  const state = async (client: Client) => expectJson<AssessmentState>(await client.request('GET', '/api/me/assessment'))

  describe('the seeded statements', () => {
    it('are three per skill for each of A1–C2, in both languages, public, in level, skill and position order', async () => {
      const english = await set(world.visitor)
      expect(english.lang).toBe('en')
      expect(english.levels.map((level) => level.code)).toEqual(['A1', 'A2', 'B1', 'B2', 'C1', 'C2'])
      expect(english.items).toHaveLength(90)
      for (const level of english.levels) {
        for (const skill of SKILLS) {
          const cell = english.items.filter((item) => item.levelId === level.id && item.skill === skill)
          expect(cell.map((item) => item.position), `${level.code} ${skill}`).toEqual([0, 1, 2])
          expect(cell.every((item) => item.text.startsWith('I can ')), `${level.code} ${skill}`).toBe(true)
        }
      }
      const order = english.items.map((item) => `${english.levels.findIndex((level) => level.id === item.levelId)} ${SKILLS.indexOf(item.skill)} ${item.position}`)
      expect(order).toEqual([...order].sort())
      const russian = await set(world.learner, '?lang=ru')
      expect(russian.items.map((item) => item.id)).toEqual(english.items.map((item) => item.id))
      expect(russian.items.every((item) => /^[А-ЯЁ][а-яё]* [а-яё]/.test(item.text))).toBe(true)
      await expectApiError(await world.visitor.request('GET', '/api/can-do-statements?lang=de'), 400, 'validation_failed')
    })
  })

  describe('who may do what', () => {
    const adminCalls: [string, string, unknown?][] = [
      ['GET', ADMIN],
      ['POST', ADMIN, { levelId: 1, skill: 'reading', text: { en: 'I can x', ru: 'Я могу x' } } satisfies StatementInput],
      ['PATCH', `${ADMIN}/1`, { text: { en: 'I can y' }, version: 1 } satisfies StatementPatch],
      ['DELETE', `${ADMIN}/1`],
      ['PUT', `${ADMIN}/order`, { levelId: 1, skill: 'reading', ids: [1] } satisfies StatementOrder],
      ['GET', CSV],
    ]

    it.each(adminCalls)('%s %s: 401 for a visitor, 403 for a learner', async (method, path, body) => {
      await expectApiError(await world.visitor.request(method, path, body), 401, 'unauthenticated')
      await expectApiError(await world.learner.request(method, path, body), 403, 'forbidden')
    })

    it('POST the CSV: 401 for a visitor, 403 for a learner, before the file is read', async () => {
      await expectApiError(await sendCsv(world.visitor, `${HEADER}\n`), 401, 'unauthenticated')
      await expectApiError(await sendCsv(world.learner, `${HEADER}\n`), 403, 'forbidden')
    })

    it('the assessment: 401 for a visitor on every operation', async () => {
      for (const [method, path, body] of [
        ['GET', '/api/me/assessment'],
        ['POST', '/api/me/assessment'],
        ['DELETE', '/api/me/assessment'],
        ['POST', '/api/me/assessment/answers', { statementId: 1, answer: 'can' }],
      ] as const) {
        await expectApiError(await world.visitor.request(method, path, body), 401, 'unauthenticated')
      }
    })

    it("each learner sees and changes only their own assessment; an administrator reads a person's latest result", async () => {
      const started = await expectJson<AssessmentProgress>(await other.request('POST', '/api/me/assessment'), 201)
      expect((await state(world.learner)).inProgress).toBeNull()
      expect((await state(other)).inProgress?.id).toBe(started.id)
      // The learner's reset does not touch the other's assessment.
      expect((await world.learner.request('DELETE', '/api/me/assessment')).status).toBe(204)
      expect((await state(other)).inProgress?.id).toBe(started.id)
      // Nor may the learner answer it: they have none in progress.
      const first = started.asking?.statementIds[0] ?? 0
      await expectApiError(await world.learner.request('POST', '/api/me/assessment/answers', { statementId: first, answer: 'can' }), 409, 'conflict')
      expect((await state(other)).inProgress?.answers).toEqual([])
      expect((await other.request('DELETE', '/api/me/assessment')).status).toBe(204)
    })
  })

  describe('administrators edit the statements', () => {
    it('add one last in its cell, change its texts with the version read, reorder the cell and delete it, each audited', async () => {
      const a1 = levels[0] as LanguageLevel
      const added = await expectJson<CanDoStatement>(
        await world.admin.request('POST', ADMIN, { levelId: a1.id, skill: 'writing', text: { en: '  I can sign my name.  ', ru: 'Я могу расписаться.' } }),
        201,
      )
      expect(added).toMatchObject({ levelId: a1.id, levelCode: 'A1', skill: 'writing', position: 3, version: 1, text: { en: 'I can sign my name.', ru: 'Я могу расписаться.' } })

      const changed = await expectJson<CanDoStatement>(await world.admin.request('PATCH', `${ADMIN}/${added.id}`, { text: { ru: 'Я могу поставить подпись.' }, version: 1 }))
      expect(changed).toMatchObject({ version: 2, text: { en: 'I can sign my name.', ru: 'Я могу поставить подпись.' } })
      await expectApiError(await world.admin.request('PATCH', `${ADMIN}/${added.id}`, { text: { en: 'Stale' }, version: 1 }), 409, 'conflict')

      const cell = (await list(`?levelId=${a1.id}&skill=writing`)).items
      expect(cell.map((s) => s.position)).toEqual([0, 1, 2, 3])
      const ids = cell.map((s) => s.id)
      await expectApiError(await world.admin.request('PUT', `${ADMIN}/order`, { levelId: a1.id, skill: 'writing', ids: ids.slice(1) }), 409, 'conflict')
      const reordered = await expectJson<CanDoStatement[]>(
        await world.admin.request('PUT', `${ADMIN}/order`, { levelId: a1.id, skill: 'writing', ids: [...ids].reverse() }),
      )
      expect(reordered.map((s) => s.id)).toEqual([...ids].reverse())
      expect(reordered.map((s) => s.position)).toEqual([0, 1, 2, 3])

      expect((await world.admin.request('DELETE', `${ADMIN}/${added.id}`)).status).toBe(204)
      const after = (await list(`?levelId=${a1.id}&skill=writing`)).items
      expect(after.map((s) => s.position)).toEqual([0, 1, 2])
      expect(after.map((s) => s.id)).toEqual([...ids].reverse().filter((id) => id !== added.id))
      await expectApiError(await world.admin.request('DELETE', `${ADMIN}/${added.id}`), 404, 'not_found')
      await expectApiError(await world.admin.request('PATCH', `${ADMIN}/${added.id}`, { version: 2 }), 404, 'not_found')
      await expectApiError(await world.admin.request('PATCH', `${ADMIN}/abc`, { version: 2 }), 404, 'not_found')

      const audit = await expectJson<AuditPage>(await world.admin.request('GET', '/api/audit-log?pageSize=10'))
      expect(audit.items.slice(0, 4).map((entry) => entry.action)).toEqual(['can-do.delete', 'can-do.reorder', 'can-do.update', 'can-do.create'])
      expect(audit.items[3]).toMatchObject({ targetType: 'can_do_statement', targetId: String(added.id), before: null, actorEmail: world.adminEmail })
    })

    it('refuses a level that does not exist, an unknown skill, empty or overlong texts, and a missing language', async () => {
      const refused = async (body: unknown, field: string) => {
        const error = await expectApiError(await world.admin.request('POST', ADMIN, body), 400, 'validation_failed')
        expect(Object.keys(error.fields ?? {}), JSON.stringify(body)).toEqual([field])
      }
      const text = { en: 'I can', ru: 'Я могу' }
      await refused({ levelId: 999999, skill: 'reading', text }, 'levelId')
      await refused({ levelId: 1, skill: 'speaking', text }, 'skill')
      await refused({ levelId: 1, skill: 'reading', text: { ...text, en: '   ' } }, 'text.en')
      await refused({ levelId: 1, skill: 'reading', text: { ...text, ru: 'я'.repeat(301) } }, 'text.ru')
      await refused({ levelId: 1, skill: 'reading', text: { en: 'I can' } }, 'text.ru')
    })

    it('searches both texts, ignoring case, and filters by level and skill', async () => {
      expect((await list('?q=TIMETABLE')).items.map((s) => s.levelCode)).toEqual(['A2'])
      expect((await list('?q=расписании')).items.map((s) => s.levelCode)).toEqual(['A2'])
      expect((await list('?skill=listening')).total).toBe(18)
      expect((await list('?q=100%25')).total).toBe(0)
      await expectApiError(await world.admin.request('GET', `${ADMIN}?levelId=0`), 400, 'validation_failed')
    })
  })

  describe('CSV', () => {
    it('exports every statement as UTF-8 with a header row, which the import reads back (refusing the duplicates)', async () => {
      const response = await world.admin.request('GET', CSV)
      expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8')
      expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="lingua-can-do-statements-\d{4}-\d{2}-\d{2}\.csv"$/)
      const bytes = Buffer.from(await response.arrayBuffer())
      // A BOM first, for spreadsheet programs (fetch's text() would drop it).
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
      const text = bytes.toString('utf8')
      expect(text.startsWith(`\ufeff${HEADER}\r\n`)).toBe(true)
      const lines = text.trimEnd().split('\r\n')
      expect(lines).toHaveLength(91)
      expect(lines[1]).toBe('A1,listening,0,"I can understand someone who tells me their name and where they are from, when they speak slowly.","Я понимаю, когда человек медленно говорит, как его зовут и откуда он."')
      // The same file again: every row repeats a statement, and nothing is written.
      const report = await expectJson<CsvImportReport>(await sendCsv(world.admin, text, '?dryRun=true'))
      expect(report).toMatchObject({ dryRun: true, rows: 90, created: 0 })
      expect(report.refused).toHaveLength(90)
      expect(report.refused[0]).toEqual({
        line: 2,
        reason: 'A1 listening already has this statement.',
        problems: [{ code: 'statementExists', level: 'A1', skill: 'listening' }],
      })
    })

    it('imports a good file: a dry run first writes nothing, then the rows are appended to their cells in position order', async () => {
      const file = [
        HEADER,
        'b1,reading,,"I can read a bus timetable, even a long one.",Я могу прочитать длинное расписание автобусов.',
        'B1,reading,0,"I can read ""small print"" on a contract.","Я могу прочитать мелкий шрифт в договоре."',
        '',
        'C2,writing,,I can write a sonnet.,Я могу написать сонет.',
      ].join('\n')
      const before = (await list()).total
      const dry = await expectJson<CsvImportReport>(await sendCsv(world.admin, file, '?dryRun=true'))
      expect(dry).toEqual({ dryRun: true, rows: 3, created: 0, refused: [] })
      expect((await list()).total).toBe(before)
      const done = await expectJson<CsvImportReport>(await sendCsv(world.admin, file))
      expect(done).toEqual({ dryRun: false, rows: 3, created: 3, refused: [] })
      const b1 = levels[2] as LanguageLevel
      const cell = (await list(`?levelId=${b1.id}&skill=reading`)).items
      expect(cell.slice(3).map((s) => [s.position, s.text.en])).toEqual([
        [3, 'I can read "small print" on a contract.'],
        [4, 'I can read a bus timetable, even a long one.'],
      ])
      const audit = await expectJson<AuditPage>(await world.admin.request('GET', '/api/audit-log?pageSize=1'))
      expect(audit.items[0]).toMatchObject({ action: 'can-do.import', targetType: 'can_do_statements', after: { statements: 3 } })
    })

    it('lists every refused row with its line and reason, and writes nothing unless all rows are valid', async () => {
      const file = [
        HEADER,
        'A1,reading,,I can read a menu in a café.,Я могу прочитать меню в кафе.',
        'Z9,reading,,I can x.,Я могу x.',
        'A1,cooking,,I can x.,Я могу x.',
        'A1,reading,first,I can y.,Я могу y.',
        'A1,reading,,,Я могу y.',
        'A1,reading,,I can read a menu in a café.,Я могу прочитать меню в кафе.',
        'A1,reading',
        `A1,reading,,${'x'.repeat(301)},Я могу.`,
        'A1,read\u0000ing,,I can z.,Я могу z.',
      ].join('\r\n')
      const before = (await list()).total
      const dry = await expectJson<CsvImportReport>(await sendCsv(world.admin, file, '?dryRun=true'))
      expect(dry.rows).toBe(9)
      // Each problem as data, for the admin page to say in its language, and all in English.
      expect(dry.refused).toEqual([
        { line: 3, reason: 'No level has the code "Z9".', problems: [{ code: 'unknownLevel', value: 'Z9' }] },
        {
          line: 4,
          reason: 'skill must be one of listening, reading, spoken-interaction, spoken-production, writing.',
          problems: [{ code: 'notOneOf', column: 'skill', values: ['listening', 'reading', 'spoken-interaction', 'spoken-production', 'writing'] }],
        },
        {
          line: 5,
          reason: 'position must be empty or a whole number from 0 to 9999.',
          problems: [{ code: 'notPosition', column: 'position', max: 9999 }],
        },
        { line: 6, reason: 'text_en is empty.', problems: [{ code: 'empty', column: 'text_en' }] },
        {
          line: 7,
          reason: 'A1 reading already has this statement.',
          problems: [{ code: 'statementExists', level: 'A1', skill: 'reading' }],
        },
        { line: 8, reason: 'Expected 5 columns, found 2.', problems: [{ code: 'columnCount', expected: 5, found: 2 }] },
        { line: 9, reason: 'text_en is longer than 300 characters.', problems: [{ code: 'tooLong', column: 'text_en', max: 300 }] },
        // NUL in any field refuses its row, naming the column, as the words' file does.
        { line: 10, reason: 'skill contains the NUL character.', problems: [{ code: 'nul', column: 'skill' }] },
      ])
      const refused = await expectApiError(await sendCsv(world.admin, file), 400, 'validation_failed')
      expect(refused.message).toBe('8 rows are refused: nothing was written. A dry run lists them all.')
      expect(refused.fields?.['line 3']).toEqual(['No level has the code "Z9".'])
      expect(Object.keys(refused.fields ?? {})).toHaveLength(8)
      expect((await list()).total).toBe(before)
    })

    it('refuses a file that is not UTF-8, naming the line; another type (415); a bad header; CSV that does not parse', async () => {
      const latin1 = Buffer.concat([Buffer.from(`${HEADER}\nA1,reading,,I can read,`), Buffer.from([0xc9, 0x74, 0xe9]), Buffer.from('\n')])
      const encoding = await expectApiError(await sendCsv(world.admin, latin1, '?dryRun=true'), 400, 'bad_request')
      expect(encoding.message).toBe('The file is not UTF-8 text (line 2): save it as "CSV UTF-8" and send it again.')
      await expectApiError(await sendCsv(world.admin, `${HEADER}\n`, '', 'text/plain'), 415, 'unsupported_media_type')
      await expectApiError(await world.admin.request('POST', CSV, { rows: [] }), 415, 'unsupported_media_type')
      const header = await expectApiError(await sendCsv(world.admin, 'level,skill,text\nA1,reading,x\n'), 400, 'bad_request')
      expect(header.message).toBe(`The header row must name the columns ${HEADER} (in any order).`)
      await expectApiError(await sendCsv(world.admin, ''), 400, 'bad_request')
      const unclosed = await expectJson<CsvImportReport>(await sendCsv(world.admin, `${HEADER}\nA1,reading,,"I can,x\n`, '?dryRun=true'))
      expect(unclosed.refused).toHaveLength(1)
      expect(unclosed.refused[0]?.reason).toMatch(/^Not valid CSV: /)
      expect(unclosed.refused[0]?.problems.map((problem) => problem.code)).toEqual(['unreadable'])
    })

    it('imports a file of 10,000 rows in one go; the levels take their statements with them, after counting them', async () => {
      // 100 statements (the most) in each of 5 skills of 20 new levels.
      const created = await Promise.all(Array.from({ length: 20 }, (_, i) => createLevel(world.admin, { code: `BIG${i}` })))
      const rows = created.flatMap((level) =>
        SKILLS.flatMap((skill) => Array.from({ length: 100 }, (_, n) => `${level.code},${skill},${n},"I can do thing ${n}, in ${skill}.",Я могу сделать дело ${n}.`)),
      )
      expect(rows).toHaveLength(10_000)
      const file = [HEADER, ...rows].join('\n')
      const started = Date.now()
      const report = await expectJson<CsvImportReport>(await sendCsv(world.admin, file))
      const took = Date.now() - started
      process.stdout.write(`can-do: 10,000-row import (${(file.length / 1e6).toFixed(2)} MB) on ${target} in ${took} ms\n`)
      expect(report).toEqual({ dryRun: false, rows: 10_000, created: 10_000, refused: [] })
      const first = created[0] as LanguageLevel
      expect((await list(`?levelId=${first.id}&skill=writing`)).items.map((s) => s.position)).toEqual(Array.from({ length: 100 }, (_, n) => n))
      // A 101st statement does not fit.
      await expectApiError(await world.admin.request('POST', ADMIN, { levelId: first.id, skill: 'writing', text: { en: 'I can 101', ru: 'Я могу 101' } }), 409, 'conflict')

      expect(await expectJson<LevelUsage>(await world.admin.request('GET', `/api/language-levels/${first.id}/usage`))).toEqual({ learners: 0, statements: 500, words: 0 })
      for (const level of created) expect((await world.admin.request('DELETE', `/api/language-levels/${level.id}`)).status).toBe(204)
      expect((await set(world.visitor)).items.filter((item) => created.some((level) => level.id === item.levelId))).toEqual([])
    }, 120_000)
  })

  describe("the learner's self-assessment", () => {
    /** Answers what is asked until the skill asked changes: `can` decides each answer by level code. */
    async function answerSkill(client: Client, can: (code: string) => boolean): Promise<AssessmentProgress> {
      const codes = new Map(levels.map((level) => [level.id, level.code]))
      let progress = (await state(client)).inProgress as AssessmentProgress
      const skill = progress.asking?.skill
      while (progress.asking && progress.asking.skill === skill) {
        const answered = new Set(progress.answers.map((a) => a.statementId))
        const next = progress.asking.statementIds.find((id) => !answered.has(id)) as number
        const answer = can(codes.get(progress.asking.levelId) ?? '') ? 'can' : 'not-yet'
        progress = await expectJson<AssessmentProgress>(await client.request('POST', '/api/me/assessment/answers', { statementId: next, answer }))
      }
      return progress
    }

    it('asks one skill at a time from the lowest level, ends a skill after two missed levels, and keeps the result as level codes', async () => {
      const learner = await world.signUp(`assessed-${target}@example.com`)
      expect(await state(learner)).toEqual({ inProgress: null, latest: null })
      await expectApiError(await learner.request('POST', '/api/me/assessment/answers', { statementId: 1, answer: 'can' }), 409, 'conflict')

      const started = await expectJson<AssessmentProgress>(await learner.request('POST', '/api/me/assessment'), 201)
      expect(started.asking).toMatchObject({ skill: 'listening', levelId: levels[0]?.id })
      expect(started.asking?.statementIds).toHaveLength(3)
      expect(started.skills.map((s: SkillProgress) => [s.skill, s.finished, s.levelCode])).toEqual(SKILLS.map((skill) => [skill, false, null]))
      // Starting again answers the same one: leaving mid-way keeps the answers.
      const first = started.asking?.statementIds[0] as number
      await expectJson(await learner.request('POST', '/api/me/assessment/answers', { statementId: first, answer: 'can' }))
      const again = await expectJson<AssessmentProgress>(await learner.request('POST', '/api/me/assessment'), 200)
      expect(again.id).toBe(started.id)
      expect(again.answers.map((a) => a.statementId)).toEqual([first])

      // Not asked: a statement that does not exist, one of a later skill, one of a higher level.
      const everything = await set(learner)
      const of = (skill: string, code: string) => everything.items.find((item) => item.skill === skill && item.levelId === levels.find((l) => l.code === code)?.id)?.id
      for (const statementId of [999999, of('reading', 'A1'), of('listening', 'B1')]) {
        const refused = await expectApiError(await learner.request('POST', '/api/me/assessment/answers', { statementId, answer: 'can' }), 400, 'validation_failed')
        expect(Object.keys(refused.fields ?? {})).toEqual(['statementId'])
      }
      await expectApiError(await learner.request('POST', '/api/me/assessment/answers', { statementId: first, answer: 'maybe' }), 400, 'validation_failed')

      // Listening: up to B1, then B2 and C1 missed: the skill ends there.
      const listening = await answerSkill(learner, (code) => ['A1', 'A2', 'B1'].includes(code))
      expect(listening.skills[0]).toMatchObject({ skill: 'listening', finished: true, levelCode: 'B1' })
      expect(listening.asking).toMatchObject({ skill: 'reading', levelId: levels[0]?.id })
      // Going back into a finished skill: 409.
      await expectApiError(await learner.request('POST', '/api/me/assessment/answers', { statementId: first, answer: 'not-yet' }), 409, 'conflict')
      // "Back" within the skill asked: the answer changes.
      const readingFirst = listening.asking?.statementIds[0] as number
      await expectJson(await learner.request('POST', '/api/me/assessment/answers', { statementId: readingFirst, answer: 'not-yet' }))
      const changed = await expectJson<AssessmentProgress>(await learner.request('POST', '/api/me/assessment/answers', { statementId: readingFirst, answer: 'can' }))
      expect(changed.answers.filter((a) => a.statementId === readingFirst)).toEqual([expect.objectContaining({ answer: 'can' })])

      await answerSkill(learner, (code) => ['A1', 'A2', 'B1'].includes(code))
      await answerSkill(learner, (code) => ['A1', 'A2'].includes(code))
      await answerSkill(learner, () => false)
      const done = await answerSkill(learner, () => true)
      expect(done.finishedAt).not.toBeNull()
      expect(done.asking).toBeNull()
      const expected: SkillResult[] = [
        { skill: 'listening', levelCode: 'B1' },
        { skill: 'reading', levelCode: 'B1' },
        { skill: 'spoken-interaction', levelCode: 'A2' },
        { skill: 'spoken-production', levelCode: null },
        { skill: 'writing', levelCode: 'C2' },
      ]
      // null, A2, B1, B1, C2: no level in three skills, so the lowest of the middle three.
      expect(done.result).toMatchObject({ skills: expected, overall: 'A2', firstLevelCode: 'A1' })
      await expectApiError(await learner.request('POST', '/api/me/assessment/answers', { statementId: readingFirst, answer: 'can' }), 409, 'conflict')

      const after = await state(learner)
      expect(after.inProgress).toBeNull()
      expect(after.latest).toEqual(done.result)

      // "Use as my current level": the existing profile endpoint, with the level of that code.
      const a2 = levels.find((level) => level.code === done.result?.overall) as LanguageLevel
      await expectJson(await learner.request('PUT', '/api/me/profile', { language: 'en', currentLevelId: a2.id, targetLevelId: null }))

      // An administrator sees it on the person's page and in the overview.
      const me = await expectJson<{ user: { id: string } }>(await learner.request('GET', '/api/me'))
      const person = await expectJson<PersonDetail>(await world.admin.request('GET', `/api/admin/users/${me.user.id}`))
      expect(person.latestAssessment).toEqual(done.result)
      const overview = await expectJson<Overview>(await world.admin.request('GET', '/api/admin/overview'))
      expect(overview.assessedLevels.slice(0, 6).map((row) => row.code)).toEqual(['A1', 'A2', 'B1', 'B2', 'C1', 'C2'])
      expect(overview.assessedLevels.find((row) => row.code === 'A2')?.learners).toBeGreaterThanOrEqual(1)

      // The level deleted later: the result keeps its code.
      const doomed = await createLevel(world.admin, { code: 'GONE1' })
      await expectJson(await world.admin.request('POST', ADMIN, { levelId: doomed.id, skill: 'reading', text: { en: 'I can go', ru: 'Я могу уйти' } }), 201)
      await expectJson(await world.admin.request('POST', ADMIN, { levelId: doomed.id, skill: 'writing', text: { en: 'I can go', ru: 'Я могу уйти' } }), 201)
      expect(await expectJson<LevelUsage>(await world.admin.request('GET', `/api/language-levels/${doomed.id}/usage`))).toEqual({ learners: 0, statements: 2, words: 0 })
      expect((await world.admin.request('DELETE', `/api/language-levels/${doomed.id}`)).status).toBe(204)
      expect((await list(`?levelId=${doomed.id}`)).total).toBe(0)
      expect((await state(learner)).latest).toEqual(done.result)
    })

    it('puts the results and answers in the copy of the data, and deletes them with the account', async () => {
      const learnerEmail = `exported-assessment-${target}@example.com`
      const learner = await world.signUp(learnerEmail)
      await expectJson(await learner.request('POST', '/api/me/assessment'), 201)
      // "Not yet" to everything: each skill ends after the first two levels, below the first.
      for (let skill = 0; skill < SKILLS.length; skill++) await answerSkill(learner, () => false)
      const { latest } = await state(learner)
      expect(latest).toMatchObject({ overall: null, firstLevelCode: 'A1' })
      const copy = await expectJson<{ assessments: { finishedAt: string | null; result: unknown; answers: { level: string; answer: string }[] }[] }>(
        await learner.request('GET', '/api/me/export'),
      )
      expect(copy.assessments).toHaveLength(1)
      expect(copy.assessments[0]?.result).toEqual({ skills: latest?.skills, overall: null, firstLevelCode: 'A1' })
      expect(copy.assessments[0]?.answers).toHaveLength(30)
      expect(copy.assessments[0]?.answers[0]).toMatchObject({ level: 'A1', skill: 'listening', answer: 'not-yet' })

      const below = async () => (await expectJson<Overview>(await world.admin.request('GET', '/api/admin/overview'))).assessedBelowFirstLevel
      const me = await expectJson<{ user: { id: string } }>(await learner.request('GET', '/api/me'))
      // The figures are kept for 30 s; an administrator's change of a person computes them again.
      await expectJson(await world.admin.request('PUT', `/api/admin/users/${me.user.id}/role`, { role: 'user' }))
      const before = await below()
      expect(before).toBeGreaterThanOrEqual(1)
      expect((await world.admin.request('DELETE', `/api/admin/users/${me.user.id}`, { email: learnerEmail })).status).toBe(204)
      expect(await below()).toBe(before - 1)
    })

    it('starts again: the answers of the one in progress are deleted, the results stay', async () => {
      const learner = await world.signUp(`again-${target}@example.com`)
      const started = await expectJson<AssessmentProgress>(await learner.request('POST', '/api/me/assessment'), 201)
      await expectJson(await learner.request('POST', '/api/me/assessment/answers', { statementId: started.asking?.statementIds[0], answer: 'can' }))
      expect((await learner.request('DELETE', '/api/me/assessment')).status).toBe(204)
      expect((await learner.request('DELETE', '/api/me/assessment')).status).toBe(204)
      expect(await state(learner)).toEqual({ inProgress: null, latest: null })
      const fresh = await expectJson<AssessmentProgress>(await learner.request('POST', '/api/me/assessment'), 201)
      expect(fresh.id).not.toBe(started.id)
      expect(fresh.answers).toEqual([])
    })

    it("asks a statement an administrator adds to the level asked, and refuses one deleted, at once (what the rule reads is kept until a change)", async () => {
      const learner = await world.signUp(`kept-rule-${target}@example.com`)
      const started = await expectJson<AssessmentProgress>(await learner.request('POST', '/api/me/assessment'), 201)
      const asked = started.asking?.statementIds ?? []
      const added = await expectJson<CanDoStatement>(
        await world.admin.request('POST', ADMIN, { levelId: started.asking?.levelId, skill: started.asking?.skill, text: { en: 'I can hear a bell.', ru: 'Я слышу звонок.' } }),
        201,
      )
      try {
        // Heard through the live events (this instance's own).
        await expect.poll(async () => (await state(learner)).inProgress?.asking?.statementIds).toEqual([...asked, added.id])
        const answered = await expectJson<AssessmentProgress>(await learner.request('POST', '/api/me/assessment/answers', { statementId: added.id, answer: 'can' }))
        expect(answered.answers.map((answer) => answer.statementId)).toEqual([added.id])
      } finally {
        expect((await world.admin.request('DELETE', `${ADMIN}/${added.id}`)).status).toBe(204)
      }
      await expect.poll(async () => (await state(learner)).inProgress?.asking?.statementIds).toEqual(asked)
      await expectApiError(await learner.request('POST', '/api/me/assessment/answers', { statementId: added.id, answer: 'can' }), 400, 'validation_failed')
    })
  })
})

describe('writes of the self-assessment are rate-limited per account', () => {
  let world: AdminWorld
  beforeAll(async () => {
    // 600 writes in 10 minutes scaled to 6.
    world = await startAdminWorld('pglite', 'can-do-limits', { ACCOUNT_RATE_LIMIT_SCALE: '0.01' })
  })
  afterAll(async () => {
    await world.stop()
  })

  it('answers 429 with Retry-After past the limit, for that account only', async () => {
    for (let write = 1; write <= 6; write++) {
      expect((await world.learner.request('POST', '/api/me/assessment')).status, `write ${write}`).toBeLessThan(300)
    }
    const limited = await world.learner.request('DELETE', '/api/me/assessment')
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    await expectApiError(limited, 429, 'rate_limited')
    // Reads are not counted; another account has its own count.
    expect((await world.learner.request('GET', '/api/me/assessment')).status).toBe(200)
    expect((await world.admin.request('POST', '/api/me/assessment')).status).toBe(201)
    // The administrators' writes of statements, likewise (300 in 10 minutes scaled to 3).
    for (let write = 1; write <= 3; write++) {
      await expectApiError(await world.admin.request('DELETE', `${ADMIN}/999999`), 404, 'not_found')
    }
    await expectApiError(await world.admin.request('DELETE', `${ADMIN}/999999`), 429, 'rate_limited')
  })
})
