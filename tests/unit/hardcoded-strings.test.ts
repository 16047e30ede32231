import { readFileSync, readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

/**
 * Every word the interface shows comes from a messages store (English beside the component, Russian
 * in locales/ru.ts). This test reads the client's source and fails on words written straight into a
 * component: JSX text, string literals in attributes a user reads or hears, and the texts of
 * toasts, page titles, confirmations and announcements built outside JSX.
 */

const root = join(import.meta.dirname, '../..')
const clientDir = join(root, 'src/client')

/** Attributes whose value is read or heard by the user, on elements and on our own components. */
const visibleAttributes = new Set([
  'alt',
  'title',
  'placeholder',
  'label',
  'aria-label',
  'aria-description',
  'aria-placeholder',
  'aria-roledescription',
  'aria-valuetext',
  'heading',
  'description',
  'hint',
  'lead',
  'message',
  'text',
  'caption',
  'summary',
  'emptyText',
  'tooltip',
])
/** …and any own prop named like one: `confirmLabel`, `emptyText`, `errorMessage`, `sectionTitle`. */
const visibleAttributeSuffix = /(Label|Text|Title|Message|Hint|Description|Placeholder|Caption)$/

/**
 * Keys of object literals handed to a call or a JSX attribute whose string value ends up on screen:
 * `toast({ title })`, `setError(name, { message })`, dnd-kit's `{ draggable }` instructions.
 */
const visibleProperties = new Set(['title', 'description', 'label', 'message', 'placeholder', 'draggable'])

/** Calls whose string argument is shown or spoken as it is. */
const visibleCalls = new Set(['alert', 'confirm', 'prompt'])

/**
 * Literal text that may stay in the source, each with its reason. Matched on the whole trimmed text
 * and the file, so an allowance never spreads to other words or other files.
 */
const allowed: { file: string; text: string; reason: string }[] = [
  {
    file: 'src/client/features/home/home-page.tsx',
    text: 'A1 · A2 · B1 · B2 · C1 · C2',
    reason: 'the CEFR level codes, written the same in every language',
  },
  {
    file: 'src/client/features/errors/fallbacks.tsx',
    text: 'Page not found:',
    reason: 'the English text of the log line; the screen shows the localized errors.pageNotFound',
  },
]

/** Text with a letter in any script; symbols, digits and punctuation alone are not words. */
const hasLetters = (text: string) => /\p{L}/u.test(text)

interface Finding {
  file: string
  line: number
  text: string
  where: string
}

function walkFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) walkFiles(path, out)
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.gen.ts')) out.push(path)
  }
  return out
}

/** The literal strings an expression can evaluate to, not those it passes to calls or indexes with. */
function valueStrings(node: ts.Expression): ts.Node[] {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node]
  if (ts.isTemplateExpression(node)) return [node.head, ...node.templateSpans.map((span) => span.literal)]
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node)) {
    return valueStrings(node.expression)
  }
  if (ts.isConditionalExpression(node)) return [...valueStrings(node.whenTrue), ...valueStrings(node.whenFalse)]
  if (ts.isBinaryExpression(node)) {
    const op = node.operatorToken.kind
    if (op === ts.SyntaxKind.AmpersandAmpersandToken) return valueStrings(node.right)
    if (op === ts.SyntaxKind.BarBarToken || op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.PlusToken) {
      return [...valueStrings(node.left), ...valueStrings(node.right)]
    }
  }
  return []
}

const literalText = (node: ts.Node) =>
  ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateLiteralToken(node)
    ? node.text
    : node.getText()

/** Finds hard-coded interface text in one source file. */
function findHardcodedStrings(fileName: string, source: string): Finding[] {
  const kind = fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, kind)
  const findings: Finding[] = []
  const report = (node: ts.Node, text: string, where: string) => {
    const trimmed = text.replace(/\s+/g, ' ').trim()
    if (!hasLetters(trimmed)) return
    const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1
    findings.push({ file: fileName, line, text: trimmed, where })
  }
  const reportValues = (expression: ts.Expression, where: string) => {
    for (const literal of valueStrings(expression)) report(literal, literalText(literal), where)
  }

  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node)) {
      report(node, node.text, 'JSX text')
    } else if (ts.isJsxExpression(node) && node.expression && !ts.isJsxAttribute(node.parent)) {
      reportValues(node.expression, 'JSX child')
    } else if (ts.isJsxAttribute(node) && node.initializer) {
      const name = node.name.getText(sf)
      if (visibleAttributes.has(name) || visibleAttributeSuffix.test(name)) {
        const init = node.initializer
        if (ts.isStringLiteral(init)) report(init, init.text, `attribute ${name}`)
        else if (ts.isJsxExpression(init) && init.expression) reportValues(init.expression, `attribute ${name}`)
      }
    } else if (ts.isPropertyAssignment(node) && handedOver(node.parent)) {
      const name = ts.isIdentifier(node.name) || ts.isStringLiteral(node.name) ? node.name.text : ''
      if (visibleProperties.has(name)) reportValues(node.initializer, `property ${name}`)
    } else if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      node.left.getText(sf) === 'document.title'
    ) {
      reportValues(node.right, 'document.title')
    } else if (ts.isCallExpression(node)) {
      const callee = node.expression
      const name = ts.isIdentifier(callee)
        ? callee.text
        : ts.isPropertyAccessExpression(callee)
          ? callee.name.text
          : ''
      if (visibleCalls.has(name)) {
        for (const argument of node.arguments) reportValues(argument, `${name}()`)
      }
    } else if (ts.isReturnStatement(node) && node.expression && inAnnouncements(node)) {
      reportValues(node.expression, 'announcement')
    }
    ts.forEachChild(node, visit)
  }
  visit(sf)
  return findings
}

/**
 * An object literal given to a call or a JSX attribute (`toast({ … })`, `accessibility={{ … }}`),
 * not a table of class names or keys. The messages stores' own `i18n('name', { … })` is where
 * English is meant to be written.
 */
function handedOver(node: ts.Node): boolean {
  if (!ts.isObjectLiteralExpression(node)) return false
  const parent = node.parent
  if (ts.isCallExpression(parent)) {
    return !(ts.isIdentifier(parent.expression) && parent.expression.text === 'i18n')
  }
  if (ts.isPropertyAssignment(parent)) return handedOver(parent.parent)
  return ts.isJsxExpression(parent)
}

/** dnd-kit speaks what the `announcements` callbacks return. */
function inAnnouncements(node: ts.Node): boolean {
  for (let parent = node.parent; parent; parent = parent.parent) {
    if (ts.isPropertyAssignment(parent) || ts.isVariableDeclaration(parent)) {
      const name = parent.name.getText()
      if (/announcements/i.test(name)) return true
    }
  }
  return false
}

function clientFindings(): Finding[] {
  const findings: Finding[] = []
  for (const path of walkFiles(clientDir)) {
    const file = relative(root, path)
    // Translations and base strings are where the words belong.
    if (file.startsWith('src/client/locales/') || file.endsWith('/messages.ts')) continue
    for (const finding of findHardcodedStrings(file, readFileSync(path, 'utf8'))) {
      const allowance = allowed.find((a) => a.file === file && a.text === finding.text)
      if (!allowance) findings.push(finding)
    }
  }
  return findings
}

describe('hard-coded interface strings', () => {
  it('finds JSX text, visible attributes and on-screen texts built in code', () => {
    const sample = [
      'export function A({ n }: { n: number }) {',
      '  toast({ title: "Saved", variant: "success" })',
      '  const classes = { title: "text-lg font-bold" }',
      '  document.title = `Hello ${n}`',
      '  return (',
      '    <div className="grid" title={n ? "Many" : "One"}>',
      '      Hello',
      '      <Field label="Name" hint={t.hint} />',
      '      {n > 1 && "items"} {t.ok} · {format.time(d, { dateStyle: "medium" })}',
      '      <img alt="" aria-label={`${n} — ${n}`} />',
      '    </div>',
      '  )',
      '}',
    ].join('\n')
    const found = findHardcodedStrings('sample.tsx', sample).map((f) => `${f.line} ${f.where}: ${f.text}`)
    expect(found).toEqual([
      '2 property title: Saved',
      '4 document.title: Hello',
      '6 attribute title: Many',
      '6 attribute title: One',
      '7 JSX text: Hello',
      '8 attribute label: Name',
      '9 JSX child: items',
    ])
  })

  it('leaves no words in the client outside the messages stores', () => {
    const report = clientFindings().map((f) => `${f.file}:${f.line} ${f.where}: ${JSON.stringify(f.text)}`)
    expect(report, 'Move these strings into messages.ts and locales/ru.ts').toEqual([])
    // It parses every file of the client: seconds when lint runs beside it (npm test) on two cores.
  }, 30_000)

  it('keeps every allowance in use', () => {
    for (const allowance of allowed) {
      const source = readFileSync(join(root, allowance.file), 'utf8')
      const texts = findHardcodedStrings(allowance.file, source).map((f) => f.text)
      expect(texts, `${allowance.file}: ${allowance.text} (${allowance.reason})`).toContain(allowance.text)
    }
  })
})
