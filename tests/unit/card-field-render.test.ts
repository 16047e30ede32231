import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { CardField } from '@/client/components/card-field/card-field'

/**
 * The server's render of a card field (entry-server.tsx renders pages without a DOM). The unit
 * project has no DOM environment, so the browser's drawing (DOMParser, the play button) is left to
 * the browser tests.
 */
const render = (html: string) => renderToString(createElement(CardField, { html, className: 'field' }))

describe('a card field rendered on the server', () => {
  it('has no DOMParser here, as on the server', () => {
    expect(typeof DOMParser).toBe('undefined')
  })

  it('renders the field’s plain text, its lines as line breaks, and no HTML of the field', () => {
    expect(render('<div><b>bold</b> word</div><div>next<br />line</div>')).toBe(
      '<div class="field">bold word<br/>next<br/>line</div>',
    )
  })

  it('shows markup written as text as text', () => {
    expect(render('&lt;img src=x onerror=alert(1)&gt; &amp; more')).toBe(
      '<div class="field">&lt;img src=x onerror=alert(1)&gt; &amp; more</div>',
    )
  })

  it('leaves out images, sounds and ruby readings', () => {
    expect(
      render('<ruby>漢<rp>(</rp><rt>かん</rt><rp>)</rp></ruby>字<img src="/api/me/media/aa" alt="x" /><audio-ref data-src="/api/me/media/bb"></audio-ref>'),
    ).toBe('<div class="field">漢字</div>')
  })

  it('shows nothing of hostile HTML that was never cleaned', () => {
    const html = render('<script>alert(1)</script><img src=x onerror=alert(1)><style>b{}</style><a href="javascript:x">t</a>')
    expect(html).toBe('<div class="field">t</div>')
  })
})
