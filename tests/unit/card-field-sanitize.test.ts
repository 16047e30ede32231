import { describe, expect, it } from 'vitest'
import { FieldTooLargeError, RAW_FIELD_MAX_BYTES, RAW_FIELD_MAX_TAGS, cleanField } from '@/server/api/imports/sanitize'
import { CARD_FIELD_MAX_BYTES, CARD_FIELD_MAX_DEPTH, fieldText, isMediaUrl, mediaUrl } from '@/shared/card-field'

/** The package's media: its names, and the app's URLs the importer stored them under. */
const packageMedia: Record<string, string> = {
  'cat.jpg': mediaUrl('aa11'),
  'hello world.mp3': mediaUrl('bb22.mp3'),
  'a&b.mp3': mediaUrl('cc33'),
  // A lookup that answers something other than a media URL is not trusted either.
  'odd.png': 'https://evil.example/x.png',
}
const media = (name: string) => packageMedia[name] ?? null
const cat = '/api/me/media/aa11'

/** [what, field as written, cleaned HTML, plain text] */
const cases: [string, string, string, string][] = [
  // Ordinary fields
  ['plain text', 'hello', 'hello', 'hello'],
  ['formatting', '<b>b</b><strong>s</strong><i>i</i><em>e</em><u>u</u><s>s</s>', '<b>b</b><strong>s</strong><i>i</i><em>e</em><u>u</u><s>s</s>', 'bsieus'],
  ['sub and sup', 'H<sub>2</sub>O x<sup>2</sup>', 'H<sub>2</sub>O x<sup>2</sup>', 'H2O x2'],
  ['old names of formatting', '<strike>a</strike><del>b</del><ins>c</ins>', '<s>a</s><s>b</s><u>c</u>', 'abc'],
  ["Anki's lines", '<div>a</div><div><br></div><div>b&nbsp;c</div>', '<div>a</div><div><br /></div><div>b\u00a0c</div>', 'a\n\nb c'],
  ['line breaks', 'one<br>two<br/>three', 'one<br />two<br />three', 'one\ntwo\nthree'],
  ['paragraphs', '<p>one</p><p>two</p>', '<p>one</p><p>two</p>', 'one\ntwo'],
  ['lists', '<ol><li>1</li><li>2</li></ol><ul><li>x</li></ul>', '<ol><li>1</li><li>2</li></ol><ul><li>x</li></ul>', '1\n2\nx'],
  ['unclosed list items', '<ul><li>a<li>b', '<ul><li>a</li><li>b</li></ul>', 'a\nb'],
  ['ruby', '<ruby>漢<rp>(</rp><rt>かん</rt><rp>)</rp></ruby>字', '<ruby>漢<rp>(</rp><rt>かん</rt><rp>)</rp></ruby>字', '漢字'],
  ['headings and tables become lines', '<h1>T</h1><table><tr><td>a</td><td>b</td></tr></table>', '<div>T</div><div><div>a</div><div>b</div></div>', 'T\na\nb'],
  ['attributes of kept elements', '<span class="x" id="y" lang="ja" data-x="1" title="t">s</span>', '<span>s</span>', 's'],
  ['unknown elements keep their text', '<font color="red">r</font><code>c</code><mark>m</mark>', 'rcm', 'rcm'],
  ['cloze', '{{c1::answer::hint}} and {{c2::<b>two</b>}}', '{{c1::answer::hint}} and {{c2::<b>two</b>}}', '{{c1::answer::hint}} and {{c2::two}}'],
  ['cloze holding a <', '{{c1::a < b::hint}}', '{{c1::a &lt; b::hint}}', '{{c1::a < b::hint}}'],
  ['entities', 'a &amp; b &lt;c&gt; &quot;q&quot; &#39; &eacute; &#x1F600;', 'a &amp; b &lt;c&gt; "q" \' é 😀', 'a & b <c> "q" \' é 😀'],
  ['escaped markup stays text', '&lt;script&gt;alert(1)&lt;/script&gt;', '&lt;script&gt;alert(1)&lt;/script&gt;', '<script>alert(1)</script>'],
  ['numeric references to markup', '&#x3C;img src=x onerror=alert(1)&#x3E;', '&lt;img src=x onerror=alert(1)&gt;', '<img src=x onerror=alert(1)>'],
  ['control characters and NUL', 'a\u0000b\u0007c&#0;d', 'abc\ufffdd', 'abc\ufffdd'],
  ['misnested tags', '<b><i>x</b></i>', '<b><i>x</i></b>', 'x'],
  ['unclosed tags', '<b>bold <i>both', '<b>bold <i>both</i></b>', 'bold both'],
  ['stray end tag', '</div>a</b>', 'a', 'a'],
  ['blank', '  \n ', '', ''],
  // Images of the package
  ['an image of the package', '<img src="cat.jpg" alt="A cat" width="9" style="x">', `<img src="${cat}" alt="A cat" />`, ''],
  ['an image percent-encoded', '<img src="hello%20world.mp3">', '<img src="/api/me/media/bb22.mp3" />', ''],
  ['an unknown image', 'a<img src="dog.jpg" alt="dog">b', 'ab', 'ab'],
  ['an image with no source', '<img alt="x">', '', ''],
  ['a lookup answering a foreign URL', '<img src="odd.png">', '', ''],
  ['an image off the app', '<img src="https://evil.example/t.gif">', '', ''],
  ['a protocol-relative image', '<img src="//evil.example/t.gif">', '', ''],
  ['an image up the path', '<img src="../cat.jpg"><img src="/api/me/media/aa11">', '', ''],
  ['a data: image', '<img src="data:image/png;base64,AAAA">', '', ''],
  ['srcset off the app', '<img src="cat.jpg" srcset="https://evil.example/t 2x">', `<img src="${cat}" />`, ''],
  ['an alt breaking out', '<img src="cat.jpg" alt="x&quot; onerror=&quot;alert(1)">', `<img src="${cat}" alt="x&quot; onerror=&quot;alert(1)" />`, ''],
  // Sounds
  ['a sound', 'say [sound:hello world.mp3] it', 'say <audio-ref data-src="/api/me/media/bb22.mp3"></audio-ref> it', 'say  it'],
  ['a sound named with an entity', '[sound:a&amp;b.mp3]', '<audio-ref data-src="/api/me/media/cc33"></audio-ref>', ''],
  ['a sound percent-encoded', '[sound:hello%20world.mp3]', '<audio-ref data-src="/api/me/media/bb22.mp3"></audio-ref>', ''],
  ['an unknown sound', 'a[sound:nope.mp3]b', 'ab', 'ab'],
  ['a sound off the app or up the path', '[sound:https://evil.example/x.mp3][sound:../x.mp3][sound:odd.png]', '', ''],
  ['a sound in formatting', '<b>[sound:cat.jpg]</b>', `<b><audio-ref data-src="${cat}"></audio-ref></b>`, ''],
  ['a sound marker in an attribute stays text', '<img src="cat.jpg" alt="[sound:cat.jpg]">', `<img src="${cat}" alt="[sound:cat.jpg]" />`, ''],
  ['a play button written in the file', '<audio-ref data-src="https://evil.example/x"></audio-ref>t', 't', 't'],
  ['an empty sound', '[sound:]', '[sound:]', '[sound:]'],
  // Hostile fields
  ['a script', '<script>alert(1)</script>ok', 'ok', 'ok'],
  ['a script in mixed case', '<ScRiPt>alert(1)</sCrIpT>ok', 'ok', 'ok'],
  ['a script with a slash', '<script/src="x"></script>ok', 'ok', 'ok'],
  ['a split script tag', '<scr<script>ipt>alert(1)</script>', 'ipt&gt;alert(1)', 'ipt>alert(1)'],
  ['a doubled <', '<<script>>alert(1)</script>', '&lt;', '<'],
  ['an event handler', '<b onclick="alert(1)" onmouseover=alert(1)>x</b>', '<b>x</b>', 'x'],
  ['onerror on an image', '<img src=x onerror=alert(1)>', '', ''],
  ['an attribute glued to the source', '<img src=cat.jpg/onerror=alert(1)>', '', ''],
  ['a javascript: link', '<a href="javascript:alert(1)">link</a>', 'link', 'link'],
  ['a link off the app', '<a href="https://evil.example/">site</a>', 'site', 'site'],
  ['a style loading a URL', '<div style="background:url(https://evil.example/t)">s</div>', '<div>s</div>', 's'],
  ['a style sheet', '<style>@import "https://evil.example/x.css"; body{background:url(x)}</style>w', 'w', 'w'],
  ['a linked style sheet', '<link rel="stylesheet" href="https://evil.example/x.css">w', 'w', 'w'],
  ['base and meta', '<base href="https://evil.example/"><meta http-equiv="refresh" content="0;url=x">w', 'w', 'w'],
  ['an iframe', '<iframe src="https://evil.example/"><b>in</b></iframe>after', 'after', 'after'],
  ['an iframe with srcdoc', '<iframe srcdoc="<script>alert(1)</script>">f</iframe>w', 'w', 'w'],
  ['an unclosed iframe', '<iframe>rest <b>x', '', ''],
  ['object and embed', '<object data="x.swf"><b>fallback</b></object><embed src="x.swf">w', 'w', 'w'],
  ['svg', '<svg onload="alert(1)"><text>t</text><script>alert(1)</script></svg>y', 'y', 'y'],
  ['svg with an image', '<svg><image href="https://evil.example/t"/><a xlink:href="javascript:alert(1)">x</a></svg>y', 'y', 'y'],
  ['math holding a style', '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>', '', ''],
  ['noscript mutation', '<noscript><p title="</noscript><img src=x onerror=alert(1)>">', '', ''],
  ['template', '<template><img src=x onerror=alert(1)></template>t', 't', 't'],
  ['textarea mutation', '<textarea></textarea/><img src=x onerror=alert(1)></textarea>t', 't', 't'],
  ['form controls', '<form action="x"><input value="v"><select><option>o</option></select><button>b</button></form>', 'b', 'b'],
  ['media elements', '<video src="x" poster="https://evil.example/p"><source src="x"></video><audio src="y"></audio>w', 'w', 'w'],
  ['comments and CDATA', '<!--<script>alert(1)</script>-->k<![CDATA[<script>]]>', 'k', 'k'],
  ['a processing instruction', '<?xml version="1.0"?>k', 'k', 'k'],
]

describe('cleaning a card field from a learner’s file', () => {
  it.each(cases)('%s', (_what, field, html, text) => {
    const clean = cleanField(field, media)
    expect(clean.html).toBe(html)
    expect(clean.text).toBe(text)
  })

  it('keeps nothing that runs, loads from elsewhere or styles, whatever the input', () => {
    for (const [, field] of cases) {
      const { html } = cleanField(field, media)
      expect(html).not.toMatch(/<(?!\/?(?:b|strong|i|em|u|s|sub|sup|br|div|p|span|ul|ol|li|ruby|rt|rp|img|audio-ref)[\s/>])/i)
      for (const [tag] of html.matchAll(/<[^>]*>/g)) {
        expect(tag).toMatch(/^<(?:\/?[a-z]+(?:-ref)?|img src="[^"]*"(?: alt="[^"]*")? \/|br \/|audio-ref data-src="[^"]*")>$/)
        for (const [, url] of tag.matchAll(/src="([^"]*)"/g)) expect(isMediaUrl(url)).toBe(true)
      }
    }
  })

  it('lists the media the cleaned field shows, by their names in the package, once each', () => {
    const clean = cleanField(
      '<img src="cat.jpg"><img src="dog.jpg">[sound:hello%20world.mp3][sound:hello world.mp3]<img src="cat.jpg"><script><img src="cat.jpg"></script>',
      media,
    )
    expect(clean.images).toEqual(['cat.jpg'])
    expect(clean.sounds).toEqual(['hello world.mp3'])
    expect(cleanField('<noscript><img src="cat.jpg"></noscript>[sound:nope.mp3]', media)).toMatchObject({
      images: [],
      sounds: [],
    })
  })

  it('asks the lookup only for names of a flat media folder', () => {
    const asked: string[] = []
    cleanField('<img src="a.png"><img src="dir/b.png"><img src="https://x/c.png">[sound:d.mp3][sound:C:\\e.mp3]', (name) => {
      asked.push(name)
      return null
    })
    expect(asked).toEqual(['a.png', 'd.mp3'])
  })

  it('keeps elements nested past the limit as their text', () => {
    const deep = '<div>'.repeat(CARD_FIELD_MAX_DEPTH + 30) + 'deep'
    const clean = cleanField(deep, media)
    expect(clean.html.match(/<div>/g)).toHaveLength(CARD_FIELD_MAX_DEPTH)
    expect(clean.text).toBe('deep')
  })

  it('refuses a field over the cleaned limit whole rather than cutting it', () => {
    const justUnder = 'x'.repeat(CARD_FIELD_MAX_BYTES)
    expect(cleanField(justUnder, media).html).toHaveLength(CARD_FIELD_MAX_BYTES)
    expect(() => cleanField(`<b>${'x'.repeat(CARD_FIELD_MAX_BYTES)}</b>`, media)).toThrow(FieldTooLargeError)
    // Bytes, not characters: 22,000 three-byte characters are 66,000 bytes.
    expect(() => cleanField('語'.repeat(22_000), media)).toThrow(FieldTooLargeError)
  })

  it('cleans a large field that shrinks under the limit (a pasted image, a script)', () => {
    const clean = cleanField(`<img src="data:image/png;base64,${'A'.repeat(1_000_000)}">word`, media)
    expect(clean.html).toBe('word')
  })

  it('refuses before parsing a field too long or with too many tags as written', () => {
    const tooLong = 'x'.repeat(RAW_FIELD_MAX_BYTES + 1)
    expect(() => cleanField(tooLong, media)).toThrow(expect.objectContaining({ unit: 'bytes', limit: RAW_FIELD_MAX_BYTES }))
    const nested = '<div>'.repeat(RAW_FIELD_MAX_TAGS + 1)
    expect(() => cleanField(nested, media)).toThrow(
      expect.objectContaining({ unit: 'tags', size: RAW_FIELD_MAX_TAGS + 1, limit: RAW_FIELD_MAX_TAGS }),
    )
    expect(() => cleanField('<i>'.repeat(RAW_FIELD_MAX_TAGS), media)).not.toThrow()
  })

  it('gives the same HTML when cleaned again', () => {
    for (const [, field] of cases) {
      const once = cleanField(field, media).html
      // Images and sounds are named by the package, never by the app's URL: a second pass drops them.
      if (once.includes('/api/me/media/')) continue
      expect(cleanField(once, media).html).toBe(once)
    }
  })
})

describe('the plain text of a cleaned field', () => {
  it('reads lines, entities, ruby and media as the cleaner writes them', () => {
    expect(fieldText('<div>a&amp;b</div><div>c<br />d</div>')).toBe('a&b\nc\nd')
    expect(fieldText(`x<img src="${cat}" alt="a cat" /><audio-ref data-src="${cat}"></audio-ref>y`)).toBe('xy')
    expect(fieldText('<ruby>日本<rt>にほん</rt></ruby>語')).toBe('日本語')
    expect(fieldText('a < b &unknown; &#xD800;')).toBe('a < b &unknown; &#xD800;')
  })
})

describe('media URLs', () => {
  it('are the app’s own, by content hash', () => {
    expect(mediaUrl('ab12')).toBe('/api/me/media/ab12')
    expect(isMediaUrl('/api/me/media/ab12.mp3')).toBe(true)
    for (const url of [
      'https://evil.example/api/me/media/ab12',
      '//evil.example/api/me/media/ab12',
      '/api/me/media/../admin',
      '/api/me/media/ab12?x=1',
      '/api/me/media/',
      '/api/me/media/a/b',
      'javascript:alert(1)',
      null,
    ]) {
      expect(isMediaUrl(url), String(url)).toBe(false)
    }
    expect(() => mediaUrl('../x')).toThrow()
  })
})
