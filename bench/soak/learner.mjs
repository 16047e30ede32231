// The learner's day (docs/product.md §10–§13): the practice queue, grades (some sent late, as answers
// given offline), a grade sent again, a grade with a stale version, undo, practice settings with
// time zones, the self-assessment's answers, and now and then a CSV or Anki import polled to its end.
// Each learner's practice writes go one at a time (takeLearner in traffic.mjs), so that what the
// script knows of the learner's cards (their versions, the latest grade, the time zone) is what the
// server holds: an answer that differs is the server's doing, and a failure.
import { randomUUID } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { tsImport } from 'tsx/esm/api'
import { appRequest } from '../lib.mjs'
import { importDeadlineMs, importPollMs, pick, random } from './options.mjs'
import { exchange, inWarmup, instances, learners, record, releaseLearner, send, takeLearner } from './traffic.mjs'

const practiceWays = ['flashcard', 'type', 'choose', 'listen', 'gap']
const cardStates = ['new', 'learning', 'review', 'relearning']
const newWordsStatuses = ['available', 'dailyLimitReached', 'noLevel', 'noWords', 'levelLearned']
const importStatuses = ['queued', 'running', 'done', 'failed']
/** New words a day: the most (100), so that the starter set's levels (97 and 80 words) last the run. */
const newWordsPerDay = 100
/** Grades as a learner gives them: "Again" often enough that cards come back within the run. */
const gradeMix = [1, 1, 1, 2, 2, 3, 3, 3, 3, 4]
/**
 * The zones the learners' browsers send (UTC+14 and UTC−11 among them, so that dates differ), some
 * spelt as no browser would: the server stores the canonical name.
 */
const timeZones = [
  'UTC',
  'Europe/Berlin',
  'America/New_York',
  'America/Los_Angeles',
  'Asia/Tokyo',
  'Asia/Kolkata',
  'Australia/Sydney',
  'Pacific/Kiritimati',
  'Pacific/Pago_Pago',
  'eUROPE/bERLIN',
  'US/Eastern',
]
/** The Anki package every Anki import sends (built at start-up), and what it holds. */
export const ankiPackage = { bytes: undefined, spec: { notes: 50, reviews: 200, images: 2, decks: 1, dueShare: 0.2 } }
/** Spanish words of the CSV imports: text, English, Russian, part of speech. */
const spanish = [
  ['hola', 'hello', 'привет', 'interjection'],
  ['adiós', 'goodbye', 'пока', 'interjection'],
  ['gracias', 'thanks', 'спасибо', 'interjection'],
  ['casa', 'house', 'дом', 'noun'],
  ['perro', 'dog', 'собака', 'noun'],
  ['gato', 'cat', 'кошка', 'noun'],
  ['libro', 'book', 'книга', 'noun'],
  ['agua', 'water', 'вода', 'noun'],
  ['pan', 'bread', 'хлеб', 'noun'],
  ['ciudad', 'city', 'город', 'noun'],
  ['comer', 'to eat', 'есть', 'verb'],
  ['beber', 'to drink', 'пить', 'verb'],
  ['hablar', 'to speak', 'говорить', 'verb'],
  ['leer', 'to read', 'читать', 'verb'],
  ['escribir', 'to write', 'писать', 'verb'],
  ['grande', 'big', 'большой', 'adjective'],
  ['pequeño', 'small', 'маленький', 'adjective'],
  ['rojo', 'red', 'красный', 'adjective'],
  ['rápido', 'fast', 'быстрый', 'adjective'],
  ['siempre', 'always', 'всегда', 'adverb'],
  ['nunca', 'never', 'никогда', 'adverb'],
  ['mañana', 'tomorrow', 'завтра', 'adverb'],
  ['mañana', 'morning', 'утро', 'noun'],
  ['y', 'and', 'и', 'conjunction'],
]

/** What the learner kinds did instead, when what they wanted was not there (for the report). */
export const learnerDay = { nothingToGrade: 0, instead: new Map() }
const instead = (what) => learnerDay.instead.set(what, (learnerDay.instead.get(what) ?? 0) + 1)

/** A learner's day as the script knows it (added to each learner at start-up). */
export const learnerState = () => ({
  busy: false, // a practice write (or profile save) of the script under way: see takeLearner
  writes: 0, // changes at the start and end of each: a queue read across one is not compared
  cards: [], // the cards still to grade of the latest queue read ({ wordId, kind, schedule }), in order
  known: new Map(), // wordId → the card's version after the script's last read or write
  lastGrade: null, // { body, result, before, at, undoable, undone }: the learner's latest grade
  staleCandidate: null, // { wordId, version }: a version an undo made stale
  unsure: false, // a write without an answer: the next grade reads the queue again first
  timeZone: 'UTC',
  deckId: undefined, // the deck of the CSV imports
  assessing: false,
  assessment: null, // the self-assessment in progress, as the last answer left it
  profileChanges: 0, // profile saves sent (a new level changes which new words may be graded)
  importing: false,
  ankiImporting: false,
  ankiImports: 'none', // 'none', 'done' (the next adds no review) or 'unknown'
})

// --- Start-up ------------------------------------------------------------------------------------

/** The learner's profile (English, the first level), practice settings and deck of CSV imports, through `server`. */
export async function setUpLearnerDay(server, learner, firstLevel) {
  const request = async (method, pathname, body) => {
    const { json, setCookies } = await appRequest(server, method, pathname, { body, cookies: Object.fromEntries(learner.jar) })
    for (const [name, value] of Object.entries(setCookies)) {
      if (value) learner.jar.set(name, value)
      else learner.jar.delete(name)
    }
    return json
  }
  await request('PUT', '/api/me/profile', { language: 'en', currentLevelId: firstLevel.id, targetLevelId: null })
  await request('PUT', '/api/me/practice/settings', { newWordsPerDay, dailyGoal: 50, timeZone: 'UTC' })
  const deck = await request('POST', '/api/me/decks', { name: 'Soak words', language: 'es' })
  learner.deckId = deck.id
  const queue = await request('GET', '/api/me/practice/queue')
  if (!(queue?.cards?.length > 0)) throw new Error(`${learner.email} has nothing to practise: ${JSON.stringify(queue)?.slice(0, 200)}`)
}

/** Writes the Anki package of the imports into `dir` with the tests' writer (loaded through tsx) and keeps its bytes. */
export async function buildAnkiPackage(dir) {
  const { writeLargePackage } = await tsImport('../../tests/helpers/anki-large-package.ts', import.meta.url)
  const file = path.join(dir, 'soak.apkg')
  await writeLargePackage(file, ankiPackage.spec)
  ankiPackage.bytes = await readFile(file)
}

// --- What the script knows -----------------------------------------------------------------------

/** After a write without an answer (it may or may not have counted): read everything again. */
function forget(learner) {
  learner.cards = []
  learner.known.clear()
  learner.lastGrade = null
  learner.staleCandidate = null
  learner.unsure = true
}

const dayFormats = new Map()
/** The date (YYYY-MM-DD) of `at` in `zone`, as the server dates a review. */
function dayIn(zone, at) {
  let format = dayFormats.get(zone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone: zone, calendar: 'gregory', numberingSystem: 'latn', year: 'numeric', month: '2-digit', day: '2-digit' })
    dayFormats.set(zone, format)
  }
  const parts = Object.fromEntries(format.formatToParts(at).map((part) => [part.type, part.value]))
  return `${parts.year}-${parts.month}-${parts.day}`
}
/** The name this runtime gives the zone (the server's runs on the same Node). */
const canonicalZone = (zone) => new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone
const hourIn = (zone, at) => Number(new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', hourCycle: 'h23' }).format(at))

/**
 * What is wrong with a queue (a string), or true: its shape, due cards (due now, oldest first)
 * before new ones (version 0), no card twice, no more new cards than are left today; and, when
 * `versions` (no write of the script's was under way since the read was sent), each card the script
 * graded or undid at the version its last answer gave.
 */
function queueVerdict(queue, learner, limit, versions) {
  if (!queue || !Array.isArray(queue.cards) || queue.cards.length > limit) return 'no cards array, or too many'
  if (![queue.dueNow, queue.newLeft, queue.laterToday?.count].every((n) => Number.isInteger(n) && n >= 0)) return 'counts'
  if (!newWordsStatuses.includes(queue.newWords?.status)) return `newWords ${JSON.stringify(queue.newWords)}`
  if (!Array.isArray(queue.ways) || queue.ways.length === 0 || !queue.ways.every((way) => practiceWays.includes(way))) return 'ways'
  const at = Date.parse(queue.at)
  if (!Number.isFinite(at)) return 'at'
  const seen = new Set()
  let news = 0
  let lastDue = Number.NEGATIVE_INFINITY
  for (const card of queue.cards) {
    const schedule = card?.schedule
    if (!Number.isInteger(card?.wordId) || seen.has(card.wordId)) return `card ${card?.wordId} twice, or no id`
    seen.add(card.wordId)
    if (typeof card.text !== 'string' || !Number.isInteger(schedule?.version) || !cardStates.includes(schedule.state)) return `card ${card.wordId}: shape`
    if (!Array.isArray(card.next) || card.next.map((next) => next.grade).join() !== '1,2,3,4') return `card ${card.wordId}: next`
    const due = Date.parse(schedule.due)
    if (card.kind === 'new') {
      news++
      if (schedule.state !== 'new' || schedule.version !== 0) return `new card ${card.wordId}: ${schedule.state}, version ${schedule.version}`
    } else if (card.kind === 'due') {
      if (news > 0) return 'a due card after a new one'
      if (schedule.state === 'new' || !(due <= at)) return `due card ${card.wordId}: ${schedule.state}, due ${schedule.due} (queue at ${queue.at})`
      if (due < lastDue) return 'due cards not oldest first'
      lastDue = due
    } else return `card ${card.wordId}: kind ${card.kind}`
    const known = versions ? learner.known.get(card.wordId) : undefined
    if (known !== undefined && known !== schedule.version) return `card ${card.wordId} at version ${schedule.version}, the last answer gave ${known}`
  }
  if (news > queue.newLeft) return `${news} new cards, ${queue.newLeft} left today`
  return true
}

/**
 * Reads the learner's queue (`owned`: holding the learner, see takeLearner) and, when no write of
 * the script's went on meanwhile, keeps its cards as the ones to grade next. A read of the learner's
 * own deck sometimes ("Practise this deck"), when not owned. Resolves to the queue, or undefined.
 */
async function readQueue(instance, learner, { owned = false } = {}) {
  const limit = pick([20, 20, 20, 100])
  const deck = !owned && learner.deckId !== undefined && random() < 0.2 ? learner.deckId : undefined
  const writes = learner.writes
  const idle = !learner.busy
  const still = () => owned || (idle && !learner.busy && learner.writes === writes)
  const { status, json } = await send('queue', instance, 'GET', `/api/me/practice/queue?limit=${limit}${deck === undefined ? '' : `&deck=${deck}`}`, {
    jar: learner.jar,
    learner,
    check: (queue) => queueVerdict(queue, learner, limit, still() && !learner.unsure),
  })
  if (status !== 200) return undefined
  if (owned || (still() && !learner.unsure && deck === undefined)) {
    if (learner.unsure) learner.known.clear()
    learner.unsure = false
    learner.cards = json.cards.map(({ wordId, kind, schedule }) => ({ wordId, kind, schedule }))
    for (const card of learner.cards) learner.known.set(card.wordId, card.schedule.version)
  }
  return json
}

/**
 * The next card to grade (taken out of the learner's cards: a card graded in a session does not come
 * back in it), the first that `wanted` accepts or else the first; the queue read again first when
 * the cards ran out or a write went unanswered. Undefined when there is nothing to practise.
 */
async function nextCard(instance, learner, wanted = () => true) {
  if (learner.unsure || learner.cards.length === 0) await readQueue(instance, learner, { owned: true })
  if (learner.cards.length === 0) {
    learnerDay.nothingToGrade++
    return undefined
  }
  const index = Math.max(0, learner.cards.findIndex(wanted))
  return learner.cards.splice(index, 1)[0]
}

/**
 * Grades `card` as `kindName` with a fresh client id and the version the queue gave; `reviewedAt`
 * (a Date in the past): an answer given offline, sent later. The answer must be that grade, counted
 * once (version + 1, one more repetition), at the time it was given (never before the card's previous
 * review) or else the server's, on the learner's date of that time.
 */
async function gradeCard(kindName, instance, learner, card, reviewedAt) {
  const body = { clientId: randomUUID(), wordId: card.wordId, grade: pick(gradeMix), version: card.schedule.version }
  if (reviewedAt) body.reviewedAt = reviewedAt.toISOString()
  const lastReview = card.schedule.lastReview ? Date.parse(card.schedule.lastReview) : Number.NEGATIVE_INFINITY
  const sentAt = Date.now()
  const verdict = (result) => {
    if (result?.clientId !== body.clientId || result.wordId !== body.wordId || result.grade !== body.grade) return 'another grade'
    if (result.undone !== false || result.schedule?.version !== body.version + 1 || result.schedule.reps !== card.schedule.reps + 1) {
      return `undone ${result.undone}, version ${result.schedule?.version} (sent ${body.version}), reps ${result.schedule?.reps} (had ${card.schedule.reps})`
    }
    const counted = Date.parse(result.reviewedAt)
    if (reviewedAt) {
      const expected = Math.max(reviewedAt.getTime(), lastReview)
      if (counted !== expected) return `counted at ${result.reviewedAt}, given at ${body.reviewedAt}`
    } else if (!(counted >= Math.max(sentAt - 1000, lastReview) && counted <= Date.now() + 1000)) return `counted at ${result.reviewedAt}, sent at ${new Date(sentAt).toISOString()}`
    const day = learner.timeZone && dayIn(learner.timeZone, new Date(counted))
    if (day && result.day !== day) return `day ${result.day}, in ${learner.timeZone} ${day}`
    return true
  }
  const { status, json } = await send(kindName, instance, 'POST', '/api/me/practice/reviews', { jar: learner.jar, learner, body, check: verdict })
  if (status === 201) {
    learner.known.set(card.wordId, json.schedule.version)
    learner.lastGrade = { body, result: json, before: card.schedule, at: Date.now(), undoable: !learner.ankiImporting, undone: false, profileChanges: learner.profileChanges }
  } else if (status === 0) forget(learner)
  else learner.cards.unshift(card) // refused (429, or signed out meanwhile): not counted, still to grade
}

/** A version of one of the learner's cards that is not the card's: the one an undo replaced, or one behind. */
function staleTarget(learner) {
  const candidate = learner.staleCandidate
  if (candidate && learner.known.has(candidate.wordId) && learner.known.get(candidate.wordId) !== candidate.version) return candidate
  const graded = [...learner.known].filter(([, version]) => version >= 1)
  if (graded.length === 0) return undefined
  const [wordId, version] = pick(graded)
  return { wordId, version: version - 1 }
}

/**
 * The upload of `form` as `learner`, then its job polled (every importPollMs, on either instance)
 * until it ends: recorded as one request of `kindName` from the upload to the end, a failure when
 * the job failed, did not end within importDeadlineMs, or ended with what `verdict(job)` refuses.
 * Resolves to the job as it ended (undefined: no end seen).
 */
async function importFile(kindName, instance, learner, form, verdict) {
  const warmup = inWarmup()
  const started = performance.now()
  const upload = await exchange(kindName, instance, 'POST', '/api/me/imports', { jar: learner.jar, learner, body: form, check: (json) => typeof json?.id === 'string' })
  if (upload.failure || upload.status !== 202) {
    record(kindName, instance, upload, warmup)
    return undefined
  }
  const { id } = upload.json
  let job
  while (!job && performance.now() - started < importDeadlineMs) {
    await sleep(importPollMs)
    const { status, json } = await send('importPoll', pick(instances), 'GET', `/api/me/imports/${id}`, {
      jar: learner.jar,
      learner,
      check: (answer) => answer?.id === id && importStatuses.includes(answer.status),
    })
    if (status === 200 && (json.status === 'done' || json.status === 'failed')) job = json
  }
  let failure
  if (!job) failure = `not ended within ${importDeadlineMs / 1000} s`
  else if (job.status === 'failed') failure = `failed: ${job.error?.code} ${job.error?.what ?? ''}`.trim()
  else if (verdict(job) !== true) failure = `done, wrong answer: ${verdict(job)}`
  record(kindName, instance, { status: 202, failure, ms: performance.now() - started }, warmup)
  return job
}

// --- The kinds ------------------------------------------------------------------------------------

export const learnerActions = {
  /** The queue, as the dashboard or /practice reads it (another tab, the live stream). */
  async queue(instance) {
    await readQueue(instance, pick(learners))
  },

  /** The next card graded now. */
  async grade(instance) {
    const learner = takeLearner()
    if (!learner) return learnerActions.queue(instance)
    try {
      const card = await nextCard(instance, learner)
      if (card) await gradeCard('grade', instance, learner, card)
    } finally {
      releaseLearner(learner)
    }
  },

  /** A due card's grade given 2–8 minutes ago, offline, sent now (a new word is graded now instead). */
  async offlineGrade(instance) {
    const learner = takeLearner()
    if (!learner) return learnerActions.queue(instance)
    try {
      const card = await nextCard(instance, learner, (c) => c.kind === 'due')
      if (!card) return
      if (card.kind !== 'due') instead('offline grade → grade (no due card)')
      const reviewedAt = card.kind === 'due' ? new Date(Date.now() - (2 + random() * 6) * 60_000) : undefined
      await gradeCard(card.kind === 'due' ? 'offlineGrade' : 'grade', instance, learner, card, reviewedAt)
    } finally {
      releaseLearner(learner)
    }
  },

  /** The latest grade sent again (its reply lost): the first result again, counted once. */
  async gradeAgain(instance) {
    const learner = takeLearner((l) => l.lastGrade)
    if (!learner) {
      instead('grade again → grade')
      return learnerActions.grade(instance)
    }
    try {
      const { body, result, undone } = learner.lastGrade
      const verdict = (again) =>
        again?.clientId === body.clientId &&
        again.wordId === body.wordId &&
        again.grade === body.grade &&
        again.reviewedAt === result.reviewedAt &&
        again.day === result.day &&
        again.schedule?.version === result.schedule.version &&
        again.undone === undone
      const { status } = await send('gradeAgain', instance, 'POST', '/api/me/practice/reviews', { jar: learner.jar, learner, body, check: verdict })
      if (status === 0) forget(learner)
    } finally {
      releaseLearner(learner)
    }
  },

  /** A grade with a version the card no longer has (the one an undo replaced, or another tab's): 409, nothing counted. */
  async staleGrade(instance) {
    const learner = takeLearner((l) => !l.unsure && staleTarget(l))
    if (!learner) {
      instead('stale grade → grade')
      return learnerActions.grade(instance)
    }
    try {
      const { wordId, version } = staleTarget(learner)
      const body = { clientId: randomUUID(), wordId, grade: 3, version }
      const { status } = await send('staleGrade', instance, 'POST', '/api/me/practice/reviews', {
        jar: learner.jar,
        learner,
        body,
        check: (json) => json?.error?.code === 'conflict',
      })
      if (status === 0) forget(learner)
    } finally {
      releaseLearner(learner)
    }
  },

  /**
   * Undo of the learner's latest grade (within its 10 minutes; not while an Anki import of theirs,
   * whose reviews come after it, may be written): the card as it was, and back among those to grade.
   */
  async undo(instance) {
    const recent = Date.now() - 9 * 60_000
    const learner = takeLearner((l) => !l.unsure && !l.ankiImporting && l.lastGrade?.undoable && !l.lastGrade.undone && l.lastGrade.at > recent)
    if (!learner) {
      instead('undo → grade')
      return learnerActions.grade(instance)
    }
    try {
      const grade = learner.lastGrade
      const { before, body } = grade
      // A new word is new again (no card: version 0); a card is restored with its version moved on.
      const version = before.version === 0 ? 0 : grade.result.schedule.version + 1
      const verdict = (answer) => {
        if (answer?.clientId !== body.clientId || answer.wordId !== body.wordId) return 'another grade'
        const schedule = answer.schedule
        if (schedule?.version !== version || schedule.state !== before.state || schedule.reps !== before.reps) {
          return `${schedule?.state}, ${schedule?.reps} reps, version ${schedule?.version}; before: ${before.state}, ${before.reps} reps, version ${version}`
        }
        return true
      }
      const { status, json } = await send('undo', instance, 'POST', '/api/me/practice/undo', { jar: learner.jar, learner, body: { clientId: body.clientId }, check: verdict })
      if (status === 200) {
        grade.undone = true
        learner.known.set(body.wordId, json.schedule.version)
        // The card goes back first in line: a due card always; a word new again only while the
        // learner's level is the one it was graded under (after a profile change the server rightly
        // refuses it as a new word: 409 new_word_not_allowed).
        const others = learner.cards.filter((c) => c.wordId !== body.wordId)
        const offered = before.version !== 0 || grade.profileChanges === learner.profileChanges
        learner.cards = offered ? [{ wordId: body.wordId, kind: before.version === 0 ? 'new' : 'due', schedule: json.schedule }, ...others] : others
        if (json.schedule.version !== body.version) learner.staleCandidate = { wordId: body.wordId, version: body.version }
      } else if (status === 0) forget(learner)
    } finally {
      releaseLearner(learner)
    }
  },

  /**
   * Practice settings saved with the browser's time zone (one of a few, some spelt oddly), a goal,
   * the ways to practise and the reminder; the answer must hold them, the zone by its canonical name.
   */
  async settings(instance) {
    const learner = takeLearner()
    if (!learner) return learnerActions.queue(instance)
    try {
      const zone = pick(timeZones)
      const canonical = canonicalZone(zone)
      const ways = practiceWays.filter(() => random() < 0.7)
      if (ways.length === 0) ways.push('flashcard')
      const body = {
        newWordsPerDay,
        dailyGoal: pick([20, 30, 50, 80]),
        timeZone: zone,
        ways,
        reminderEnabled: random() < 0.3,
        // Half the time the hour under way: a reminder may go within minutes (when cards wait).
        reminderHour: random() < 0.5 ? hourIn(canonical, new Date()) : Math.floor(random() * 24),
      }
      const verdict = (saved) =>
        saved?.timeZone === canonical &&
        saved.newWordsPerDay === body.newWordsPerDay &&
        saved.dailyGoal === body.dailyGoal &&
        saved.ways?.join() === ways.join() &&
        saved.reminderEnabled === body.reminderEnabled &&
        saved.reminderHour === body.reminderHour
      const { status, json } = await send('settings', instance, 'PUT', '/api/me/practice/settings', {
        jar: learner.jar,
        learner,
        body,
        check: verdict,
        headers: { 'Accept-Language': pick(['en', 'ru', 'en-GB,en;q=0.9', 'ru-RU,ru;q=0.9,en;q=0.8']) },
      })
      if (status === 200) learner.timeZone = json.timeZone
      else if (status === 0) {
        forget(learner)
        learner.timeZone = undefined // not known until the next save answers
      }
      // Another day may have begun for the learner: its new words are read again.
      learner.cards = []
    } finally {
      releaseLearner(learner)
    }
  },

  /**
   * One statement of the self-assessment answered (started first when none is in progress): the
   * next one asked, or now and then "Back" to change an answer of the level asked. The answer must
   * hold it; a finished one, its result.
   */
  async answer(instance) {
    const learner = pick(learners.filter((l) => !l.assessing))
    if (!learner) return learnerActions.queue(instance)
    learner.assessing = true
    try {
      const shape = (progress) =>
        Number.isInteger(progress?.id) &&
        Array.isArray(progress.answers) &&
        progress.skills?.length === 5 &&
        (progress.finishedAt === null ? progress.asking?.statementIds?.length > 0 && progress.result === null : progress.asking === null && progress.result?.skills?.length === 5)
      if (!learner.assessment) {
        const { status, json } = await send('assessmentStart', instance, 'POST', '/api/me/assessment', {
          jar: learner.jar,
          learner,
          check: (progress) => shape(progress) && progress.finishedAt === null,
        })
        if (status !== 200 && status !== 201) return
        learner.assessment = json
      }
      const progress = learner.assessment
      const asked = progress.asking.statementIds
      const given = new Map(progress.answers.map((a) => [a.statementId, a.answer]))
      const open = asked.filter((id) => !given.has(id))
      const back = open.length === 0 || (random() < 0.1 && asked.some((id) => given.has(id)))
      const statementId = back ? pick(asked.filter((id) => given.has(id))) : open[0]
      if (statementId === undefined) return
      const answer = back ? (given.get(statementId) === 'can' ? 'not-yet' : 'can') : random() < 0.7 ? 'can' : 'not-yet'
      const verdict = (next) => {
        if (!shape(next)) return 'shape'
        if (next.id !== progress.id) return `assessment ${next.id}, answered ${progress.id}`
        const kept = next.answers.find((a) => a.statementId === statementId)?.answer
        return kept === answer || `statement ${statementId}: ${kept ?? 'no answer'} kept, ${answer} given`
      }
      const { status, json } = await send('answer', instance, 'POST', '/api/me/assessment/answers', { jar: learner.jar, learner, body: { statementId, answer }, check: verdict })
      learner.assessment = status === 200 && json.finishedAt === null ? json : null
    } finally {
      learner.assessing = false
    }
  },

  /** 5–15 Spanish words (some the deck has already: updated) imported from CSV into the learner's deck. */
  async csvImport(instance) {
    const learner = pick(learners.filter((l) => !l.importing && l.deckId !== undefined))
    if (!learner) return learnerActions.queue(instance)
    learner.importing = true
    try {
      const drawn = spanish.filter(() => random() < 0.4).slice(0, 15)
      const rows = drawn.length >= 5 ? drawn : spanish.slice(0, 5)
      const stamp = Math.floor(random() * 1000)
      const csv = [
        'language,text,translation_en,translation_ru,example,part_of_speech',
        ...rows.map(([text, en, ru, partOfSpeech]) => `es,${text},${en},${ru},${text} (${stamp}),${partOfSpeech}`),
      ].join('\r\n')
      const form = new FormData()
      form.append('deckId', String(learner.deckId))
      form.append('file', new Blob([csv], { type: 'text/csv' }), 'words.csv')
      await importFile('csvImport', instance, learner, form, (job) => {
        const deck = job.decks?.[0]
        if (job.kind !== 'csv' || job.notes !== rows.length || job.cards !== rows.length || job.reviews !== 0 || job.skipped?.length !== 0) {
          return `${job.kind}: ${job.notes} notes, ${job.cards} cards, ${job.reviews} reviews, ${job.skipped?.length} skipped of ${rows.length} rows`
        }
        return (job.decks.length === 1 && deck.id === learner.deckId && deck.cards >= rows.length) || `decks ${JSON.stringify(job.decks)}`
      })
    } finally {
      learner.importing = false
    }
  },

  /**
   * The Anki package (50 notes with 200 reviews, 2 pictures, one deck) imported: the first time its
   * reviews are kept, a second time the same notes are found again and nothing is added.
   */
  async ankiImport(instance) {
    const learner = pick(learners.filter((l) => !l.importing))
    if (!learner || !ankiPackage.bytes) return learnerActions.queue(instance)
    learner.importing = true
    learner.ankiImporting = true
    // Its reviews come after the learner's latest grade, which can no longer be undone.
    if (learner.lastGrade) learner.lastGrade.undoable = false
    try {
      const { notes, reviews, images } = ankiPackage.spec
      const before = learner.ankiImports
      const form = new FormData()
      form.append('language', 'en')
      form.append('file', new Blob([ankiPackage.bytes]), 'soak.apkg')
      const job = await importFile('ankiImport', instance, learner, form, (done) => {
        const kept = before === 'none' ? reviews : before === 'done' ? 0 : done.reviews
        if (done.kind !== 'anki' || done.notes !== notes || done.cards !== notes || done.media !== images || done.reviews !== kept || done.skipped?.length !== 0) {
          return `${done.kind}: ${done.notes} notes, ${done.cards} cards, ${done.media} media, ${done.reviews} reviews (${kept} wanted), ${done.skipped?.length} skipped`
        }
        return (done.decks.length === 1 && done.decks[0].cards === notes) || `decks ${JSON.stringify(done.decks)}`
      })
      learner.ankiImports = job?.status === 'done' ? 'done' : job?.status === 'failed' && before !== 'unknown' ? before : 'unknown'
    } finally {
      learner.importing = false
      learner.ankiImporting = false
      if (learner.lastGrade) learner.lastGrade.undoable = false
    }
  },
}
