import { readFile } from 'node:fs/promises'
import type { APIRequestContext, BrowserContext, Locator, Page, Request, Route } from '@playwright/test'
import sharp from 'sharp'
import ru from '@/client/locales/ru'
import {
  type ColourMode,
  type InterfaceLanguage,
  ViolationReport,
  colourModes,
  interfaceLanguages,
  prefer,
  quiet,
  settled,
  tabTo,
} from './helpers/a11y'
import { confirmPath, password, signedInAs, subjects, uniqueEmail, userMenuButton, waitForMail } from './helpers/accounts'
import { type OwnServer, startOwnServer } from './helpers/admin'
import { accessibilityViolations, expect, failedResource, mainHeading, test, toasts } from './helpers/fixtures'
import { type FilePayload, colours, expectColour, halves, noise, pixelAt, quarters } from './helpers/images'

// The profile picture (docs/product.md §9): chosen with the file picker, the keyboard or a drop,
// cropped by keyboard in the dialog, re-encoded by the server into two WebP sizes shown wherever the
// account's avatar is; refused before sending or by the server; replaced, removed, public to anyone;
// in the data export; and accessible in both languages and colour modes. Every picture is made
// with sharp (helpers/images.ts), in colours whose place tells which part of it the server kept.

const labels = {
  en: {
    profile: 'Profile',
    picture: 'Profile picture',
    hint: 'JPEG, PNG, WebP, AVIF or GIF, up to 5 MB. Choose a file or drop it here.',
    choose: 'Choose a picture',
    replace: 'Replace picture',
    remove: 'Remove picture',
    dialog: 'Crop your picture',
    frame: 'Crop frame: move it with the arrow keys',
    save: 'Save picture',
    cancel: 'Cancel',
    topLeft: 'Frame corner, top left: resize with the arrow keys',
    typeRefused: 'Choose a JPEG, PNG, WebP, AVIF or GIF picture.',
  },
  ru: {
    profile: ru.account.profileTitle,
    picture: 'Фото профиля',
    hint: ru.account.pictureHint,
    choose: 'Выбрать фото',
    replace: 'Заменить фото',
    remove: 'Удалить фото',
    dialog: 'Обрежьте фото',
    frame: ru.account.cropArea,
    save: 'Сохранить фото',
    cancel: ru.account.cancel,
    topLeft: ru.account.cropHandle.replace('{corner}', ru.account.cornerNw),
    typeRefused: ru.account.pictureTypeRefused,
  },
} as const

const en = labels.en
const profile = (page: Page, lang: InterfaceLanguage = 'en') =>
  page.getByRole('region', { name: labels[lang].profile, exact: true })
const fileInput = (page: Page, lang: InterfaceLanguage = 'en') => profile(page, lang).locator('input[type=file]')
/** The dashed box around the picture controls, which takes a dropped file (the file input's parent). */
const dropZone = (page: Page) => fileInput(page).locator('..')
const cropDialog = (page: Page, lang: InterfaceLanguage = 'en') => page.getByRole('dialog', { name: labels[lang].dialog })
const cropFrame = (page: Page, lang: InterfaceLanguage = 'en') =>
  cropDialog(page, lang).getByRole('group', { name: labels[lang].frame })
const topLeftCorner = (page: Page, lang: InterfaceLanguage = 'en') =>
  cropDialog(page, lang).getByRole('button', { name: labels[lang].topLeft, exact: true })

const isUpload = (url: URL) => url.pathname === '/api/me/avatar'
const isUploadRequest = (request: Request) => isUpload(new URL(request.url())) && request.method() === 'PUT'

const uploadedUrl = /^\/api\/avatars\/[\w-]+\/[0-9a-f]{20}-256\.webp$/
const smallOf = (large: string) => large.replace(/-256\.webp$/, '-64.webp')

/** The `image` of the signed-in account, as the server has it now. */
async function accountImage(request: APIRequestContext): Promise<string | null> {
  const response = await request.get('/api/auth/get-session?disableCookieCache=true')
  expect(response.status()).toBe(200)
  return ((await response.json()) as { user: { image: string | null } }).user.image
}

/**
 * An avatar showing the uploaded picture `large` (its 256 px URL): the 64 px file as `src` (what a
 * 1× screen loads, checked by its pixels), and for avatars above 32 px the 256 px one for 2× screens.
 */
async function expectPicture(img: Locator, large: string, { sharpScreens }: { sharpScreens: boolean }) {
  const small = smallOf(large)
  await expect(img).toHaveAttribute('src', small)
  if (sharpScreens) await expect(img).toHaveAttribute('srcset', `${small} 1x, ${large} 2x`)
  else expect(await img.getAttribute('srcset'), 'a 32 px avatar has no 2× file').toBeNull()
  const loaded = await img.evaluate((element: HTMLImageElement) => ({
    complete: element.complete,
    current: new URL(element.currentSrc).pathname,
    width: element.naturalWidth,
  }))
  expect(loaded).toEqual({ complete: true, current: small, width: 64 })
}

/** An avatar showing the initials of `name` (no picture). */
async function expectInitials(scope: Locator, name: string, initials: string) {
  await expect(scope.getByText(initials, { exact: true })).toBeVisible()
  await expect(scope.locator('img')).toHaveCount(0)
  // The fallback is the picture for assistive technology, named after the person.
  await expect(scope.locator('[role="img"]', { hasText: initials })).toHaveAttribute('aria-label', name)
}

/** The picture everywhere the signed-in person sees their own avatar: account page, header, dashboard. */
async function expectPictureEverywhere(page: Page, name: string, large: string) {
  await page.goto('/account')
  await expectPicture(profile(page).locator('img'), large, { sharpScreens: true })
  await expectPicture(userMenuButton(page, name).locator('img'), large, { sharpScreens: false })
  await page.goto('/dashboard')
  await expect(mainHeading(page)).toHaveText(`Hello, ${name}!`)
  await expectPicture(page.getByRole('main').locator('img'), large, { sharpScreens: true })
  await expectPicture(userMenuButton(page, name).locator('img'), large, { sharpScreens: false })
}

async function expectInitialsEverywhere(page: Page, name: string, initials: string) {
  await page.goto('/account')
  await expectInitials(dropZone(page), name, initials)
  await expectInitials(userMenuButton(page, name), name, initials)
  await page.goto('/dashboard')
  await expect(mainHeading(page)).toHaveText(`Hello, ${name}!`)
  await expectInitials(page.getByRole('main'), name, initials)
}

/**
 * Every test of the file keeps a file chooser listener on its page. Playwright is handed the
 * browser's file chooser only once it has asked Chromium to intercept it, which it asks (without
 * waiting for the answer) when a page's first listener is added, and undoes when the last goes: a
 * press right after `waitForEvent('filechooser')` could outrun the request, and the chooser then
 * opened unseen (the keyboard journey's second choice waited out its 60 s, twice in four runs).
 */
test.beforeEach(({ page }) => {
  page.on('filechooser', () => undefined)
})

/** Picks `file` as a person does on the account page: the picture's button, then the browser's file chooser. */
async function chooseFile(page: Page, file: FilePayload, lang: InterfaceLanguage = 'en') {
  const part = profile(page, lang)
  const button = part
    .getByRole('button', { name: labels[lang].choose, exact: true })
    .or(part.getByRole('button', { name: labels[lang].replace, exact: true }))
  const chooser = page.waitForEvent('filechooser')
  await button.click()
  const fileChooser = await chooser
  expect(fileChooser.isMultiple()).toBe(false)
  await fileChooser.setFiles(file)
}

/**
 * Chooses `file` on the open account page and saves it uncropped (the dialog's square in the
 * middle); answers the URL of the 256 px picture the server made.
 */
async function uploadThroughPage(page: Page, file: FilePayload): Promise<string> {
  await chooseFile(page, file)
  await expect(cropFrame(page)).toBeVisible()
  const answered = page.waitForResponse((response) => isUploadRequest(response.request()))
  await cropDialog(page).getByRole('button', { name: en.save }).click()
  const response = await answered
  expect(response.status(), await response.text()).toBe(200)
  const { image } = (await response.json()) as { image: string }
  expect(image).toMatch(uploadedUrl)
  // The toast of an earlier upload may still show.
  await expect(toasts(page).getByText('Picture saved', { exact: true }).last()).toBeVisible()
  await expect(cropDialog(page)).toBeHidden()
  await expect(profile(page).getByRole('button', { name: en.replace })).toBeVisible()
  return image
}

/** Where the app puts the keyboard during a journey: the next key presses go there. */
async function expectKeyboardOn(target: Locator, what: string) {
  await expect(target, what).toBeFocused()
}

/** A picture file as the server serves it: public, WebP, the same bytes for ever. */
async function fetchPicture(request: APIRequestContext, url: string, side: number): Promise<Buffer> {
  const response = await request.get(url)
  expect(response.status(), `GET ${url}`).toBe(200)
  expect(response.headers()['content-type']).toBe('image/webp')
  expect(response.headers()['cache-control']).toContain('immutable')
  const body = await response.body()
  const { format, width, height } = await sharp(body).metadata()
  expect({ format, width, height }).toEqual({ format: 'webp', width: side, height: side })
  return body
}

async function statusOf(request: APIRequestContext, url: string) {
  return (await request.get(url)).status()
}

/** The frame's box and the picture's, on screen. */
async function frameAndPicture(page: Page) {
  const frame = await cropFrame(page).boundingBox()
  const picture = await cropDialog(page).locator('img').boundingBox()
  if (!frame || !picture) throw new Error('the crop frame and its picture are on screen')
  return { frame, picture }
}

test.describe('the profile picture', () => {
  // A focus check that fails waits for its timeout, softly, and the journey goes on.
  test.describe.configure({ timeout: 60_000 })

  test('chosen with the file picker, moved by keyboard in the crop dialog, then shown everywhere in the cropped part', async ({
    page,
    context,
    baseURL,
  }) => {
    const name = 'Paula Picture'
    await signedInAs(context, baseURL ?? '', name)
    await page.goto('/account')
    const part = profile(page)
    await expect(part.getByText(en.picture, { exact: true })).toBeVisible()
    await expect(part.getByText(en.hint, { exact: true })).toBeVisible()
    await expectInitials(dropZone(page), name, 'PP')
    await expect(part.getByRole('button', { name: en.remove })).toHaveCount(0)

    // 600 × 300: left half red, right half blue. The dialog starts on the middle square.
    const jpeg = await halves(600, 300, colours.red, colours.blue)
    await chooseFile(page, { name: 'halves.jpg', mimeType: 'image/jpeg', buffer: jpeg })
    const dialog = cropDialog(page)
    await expect(dialog).toBeVisible()
    await expectKeyboardOn(cropFrame(page), 'focus on the crop frame once the picture has loaded')
    expect(await accessibilityViolations(page)).toEqual([])

    const before = await frameAndPicture(page)
    expect(before.frame.x, 'the frame starts in the middle').toBeGreaterThan(before.picture.x + 10)
    for (let press = 0; press < 30; press += 1) await page.keyboard.press('Shift+ArrowRight')
    const after = await frameAndPicture(page)
    expect(Math.abs(after.frame.x + after.frame.width - (after.picture.x + after.picture.width))).toBeLessThanOrEqual(1)
    expect(Math.abs(after.frame.width - before.frame.width), 'moved, not resized').toBeLessThanOrEqual(1)

    const save = dialog.getByRole('button', { name: en.save })
    await tabTo(page, save)

    // The upload is held while the dialog shows its progress.
    let hold: (route: Route) => void = () => undefined
    const held = new Promise<Route>((resolve) => (hold = resolve))
    await page.route(isUpload, (route) => hold(route))
    await page.keyboard.press('Enter')
    const route = await held
    const upload = route.request()
    expect(upload.method()).toBe('PUT')
    expect(upload.headers()['content-type']).toBe('image/jpeg')
    expect(upload.postDataBuffer()?.equals(jpeg), 'the file is sent as it is').toBe(true)
    const query = new URL(upload.url()).searchParams
    const [left, top, size] = ['left', 'top', 'size'].map((key) => Number(query.get(key)))
    expect(top).toBe(0)
    expect(Math.abs((size ?? 0) - 300)).toBeLessThanOrEqual(1)
    expect(Math.abs((left ?? 0) + (size ?? 0) - 600), 'the square at the right edge').toBeLessThanOrEqual(1)
    await expect(dialog.getByRole('progressbar', { name: 'Upload' })).toBeVisible()
    await expect(dialog.getByRole('button', { name: 'Uploading…' })).toBeDisabled()
    const answered = page.waitForResponse((response) => isUploadRequest(response.request()))
    await route.continue()
    expect((await answered).status()).toBe(200)
    await page.unroute(isUpload)

    await expect(toasts(page).getByText('Picture saved', { exact: true })).toBeVisible()
    await expect(dialog).toBeHidden()
    // Focus back on the button.
    await expect(part.getByRole('button', { name: en.replace }), 'focus after saving').toBeFocused()
    await expect(part.getByRole('button', { name: en.remove })).toBeVisible()

    const large = await accountImage(page.request)
    expect(large).toMatch(uploadedUrl)
    await expectPicture(part.locator('img'), large ?? '', { sharpScreens: true })
    await expectPicture(userMenuButton(page, name).locator('img'), large ?? '', { sharpScreens: false })
    await expectPictureEverywhere(page, name, large ?? '')

    // The kept square is the right half: blue from edge to edge, no red.
    const picture = await fetchPicture(page.request, large ?? '', 256)
    for (const x of [4, 128, 251]) expectColour(await pixelAt(picture, x, 128), colours.blue, `256 px at (${x}, 128)`)
    const small = await fetchPicture(page.request, smallOf(large ?? ''), 64)
    expectColour(await pixelAt(small, 32, 32), colours.blue, '64 px at its centre')
  })

  test('the whole journey by keyboard: the button opens the file chooser, a corner resizes the frame', async ({
    page,
    context,
    baseURL,
  }) => {
    const name = 'Keyla Keyboard'
    await signedInAs(context, baseURL ?? '', name)
    await page.goto('/account')
    await expect(mainHeading(page)).toBeVisible()
    const choose = profile(page).getByRole('button', { name: en.choose })
    await tabTo(page, choose)
    await expect(choose).toHaveAccessibleDescription(en.hint)

    // Quarters: red, green / yellow, blue. The frame starts on the whole square.
    const png = await quarters(400, [colours.red, colours.green, colours.yellow, colours.blue])
    const chooseByKeyboard = async () => {
      const chooser = page.waitForEvent('filechooser')
      await page.keyboard.press('Enter')
      const fileChooser = await chooser
      expect(fileChooser.isMultiple()).toBe(false)
      await fileChooser.setFiles({ name: 'quarters.png', mimeType: 'image/png', buffer: png })
      await expectKeyboardOn(cropFrame(page), 'focus on the crop frame once the picture has loaded')
    }
    await chooseByKeyboard()

    // Escape closes the dialog without sending anything; the keyboard is back on the button.
    await page.keyboard.press('Escape')
    await expect(cropDialog(page)).toBeHidden()
    await expectKeyboardOn(choose, 'focus after Escape')
    expect(await accountImage(page.request)).toBeNull()

    await chooseByKeyboard()

    // The top-left corner, moved down with Shift, shrinks the frame towards the bottom right.
    const topLeft = topLeftCorner(page)
    await page.keyboard.press('Tab')
    await expect(topLeft).toBeFocused()
    const before = await frameAndPicture(page)
    for (let press = 0; press < 25; press += 1) await page.keyboard.press('Shift+ArrowDown')
    const after = await frameAndPicture(page)
    expect(after.frame.width, 'the frame is smaller').toBeLessThan(before.frame.width / 2)
    expect(Math.abs(after.frame.height - after.frame.width), 'and still square').toBeLessThanOrEqual(1)
    expect(Math.abs(after.frame.x + after.frame.width - (before.frame.x + before.frame.width))).toBeLessThanOrEqual(1)
    expect(Math.abs(after.frame.y + after.frame.height - (before.frame.y + before.frame.height))).toBeLessThanOrEqual(1)

    await tabTo(page, cropDialog(page).getByRole('button', { name: en.save }))
    const sent = page.waitForRequest(isUploadRequest)
    const answered = page.waitForResponse((response) => isUploadRequest(response.request()))
    await page.keyboard.press('Enter')
    const query = new URL((await sent).url()).searchParams
    const [left, top, size] = ['left', 'top', 'size'].map((key) => Number(query.get(key)))
    expect(size).toBeLessThan(200)
    expect(left).toBeGreaterThan(200)
    expect(top).toBeGreaterThan(200)
    expect((await answered).status()).toBe(200)
    await expect(toasts(page).getByText('Picture saved', { exact: true })).toBeVisible()
    await expect(cropDialog(page)).toBeHidden()
    await expect(profile(page).getByRole('button', { name: en.replace }), 'focus after saving').toBeFocused()

    // Only the bottom-right quarter is kept.
    const large = (await accountImage(page.request)) ?? ''
    await expectPicture(profile(page).locator('img'), large, { sharpScreens: true })
    const picture = await fetchPicture(page.request, large, 256)
    for (const [x, y] of [[4, 4], [128, 128], [251, 251], [4, 251], [251, 4]] as const) {
      expectColour(await pixelAt(picture, x, y), colours.blue, `256 px at (${x}, ${y})`)
    }
  })

  test('a PNG dropped on the dashed box opens the crop dialog and is saved', async ({ page, context, baseURL }) => {
    const name = 'Drew Dropper'
    await signedInAs(context, baseURL ?? '', name)
    await page.goto('/account')
    await expectInitials(dropZone(page), name, 'DD')

    // Top half green, bottom half yellow: a square, kept whole.
    const png = await quarters(300, [colours.green, colours.green, colours.yellow, colours.yellow])
    const dataTransfer = await page.evaluateHandle(
      ({ bytes, fileName }) => {
        const transfer = new DataTransfer()
        transfer.items.add(new File([new Uint8Array(bytes)], fileName, { type: 'image/png' }))
        return transfer
      },
      { bytes: [...png], fileName: 'dropped.png' },
    )
    await dropZone(page).dispatchEvent('dragover', { dataTransfer })
    await expect(profile(page).getByText('Drop the picture to use it', { exact: true })).toBeVisible()
    await dropZone(page).dispatchEvent('drop', { dataTransfer })
    await expect(cropDialog(page)).toBeVisible()
    await expect(cropFrame(page)).toBeVisible()

    const answered = page.waitForResponse((response) => isUploadRequest(response.request()))
    await cropDialog(page).getByRole('button', { name: en.save }).click()
    const response = await answered
    expect(response.status()).toBe(200)
    expect(response.request().headers()['content-type']).toBe('image/png')
    await expect(toasts(page).getByText('Picture saved', { exact: true })).toBeVisible()
    await expect(cropDialog(page)).toBeHidden()
    // The box is back to its hint (checked with the dialog closed: a modal hides the page from roles).
    await expect(profile(page).getByText(en.hint, { exact: true })).toBeVisible()

    const large = (await accountImage(page.request)) ?? ''
    expect(large).toMatch(uploadedUrl)
    await expectPictureEverywhere(page, name, large)
    const picture = await fetchPicture(page.request, large, 256)
    expectColour(await pixelAt(picture, 128, 20), colours.green, 'top of the 256 px picture')
    expectColour(await pixelAt(picture, 128, 235), colours.yellow, 'bottom of the 256 px picture')
  })

  test('a file of another type or over 5 MB is refused before anything is sent', async ({ page, context, baseURL }) => {
    const name = 'Rita Refused'
    await signedInAs(context, baseURL ?? '', name)
    const sent: string[] = []
    page.on('request', (request) => {
      if (isUpload(new URL(request.url()))) sent.push(`${request.method()} ${request.url()}`)
    })
    await page.goto('/account')
    const part = profile(page)
    const refusal = part.getByRole('alert')

    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>')
    await fileInput(page).setInputFiles({ name: 'drawing.svg', mimeType: 'image/svg+xml', buffer: svg })
    await expect(refusal).toHaveText(en.typeRefused)
    await expect(cropDialog(page)).toHaveCount(0)

    const big = await noise(1600, 1200)
    expect(big.length, 'the file is over 5 MB').toBeGreaterThan(5 * 1024 * 1024)
    await fileInput(page).setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: big })
    await expect(refusal).toHaveText('This picture is larger than 5 MB. Choose a smaller one.')
    await expect(cropDialog(page)).toHaveCount(0)

    // Dropped, the same checks apply.
    const dataTransfer = await page.evaluateHandle((text) => {
      const transfer = new DataTransfer()
      transfer.items.add(new File([text], 'dropped.svg', { type: 'image/svg+xml' }))
      return transfer
    }, svg.toString())
    await dropZone(page).dispatchEvent('dragover', { dataTransfer })
    await dropZone(page).dispatchEvent('drop', { dataTransfer })
    await expect(refusal).toHaveText(en.typeRefused)
    await expect(cropDialog(page)).toHaveCount(0)

    expect(sent, 'no request to /api/me/avatar').toEqual([])
    expect(await accountImage(page.request)).toBeNull()
    await expectInitials(dropZone(page), name, 'RR')
  })

  test('a damaged file the server cannot read changes nothing', async ({ page, context, baseURL, diagnostics }) => {
    diagnostics.allowConsoleError(failedResource(400))
    const name = 'Tess Truncated'
    await signedInAs(context, baseURL ?? '', name)
    await page.goto('/account')
    const whole = await sharp(await noise(300, 300)).png().toBuffer()
    const truncated = whole.subarray(0, Math.floor(whole.length / 2))
    await chooseFile(page, { name: 'truncated.png', mimeType: 'image/png', buffer: truncated })
    const dialog = cropDialog(page)
    await expect(dialog).toBeVisible()
    const cannotOpen = dialog.getByRole('alert').filter({ hasText: 'This picture could not be opened. Choose another one.' })
    // Chromium shows what it could decode of a truncated PNG, or nothing: either is right.
    await expect(cannotOpen.or(cropFrame(page))).toBeVisible()
    const save = dialog.getByRole('button', { name: en.save })
    if (await cannotOpen.isVisible()) {
      test.info().annotations.push({ type: 'truncated PNG', description: 'Chromium could not open it' })
      await expect(save).toBeDisabled()
    } else {
      test.info().annotations.push({ type: 'truncated PNG', description: 'Chromium showed it; the server refused it' })
      const answered = page.waitForResponse((response) => isUploadRequest(response.request()))
      await save.click()
      expect((await answered).status()).toBe(400)
      await expect(dialog.getByRole('alert')).toHaveText(
        'This picture could not be read: the file may be damaged or incomplete.',
      )
      await expect(save).toBeEnabled()
    }
    await expect(toasts(page).getByText('Picture saved', { exact: true })).toHaveCount(0)
    await dialog.getByRole('button', { name: en.cancel }).click()
    await expect(dialog).toBeHidden()
    await expect(profile(page).getByRole('button', { name: en.choose })).toBeVisible()

    expect(await accountImage(page.request)).toBeNull()
    await expectInitialsEverywhere(page, name, 'TT')
  })

  test('a replaced picture is gone from its URLs, and a removed one too: the initials are back', async ({
    page,
    context,
    baseURL,
  }) => {
    const name = 'Rhea Replacer'
    await signedInAs(context, baseURL ?? '', name)
    await page.goto('/account')
    const first = await uploadThroughPage(page, {
      name: 'first.jpg',
      mimeType: 'image/jpeg',
      buffer: await halves(400, 400, colours.red, colours.red),
    })
    await fetchPicture(page.request, first, 256)
    await expectPicture(profile(page).locator('img'), first, { sharpScreens: true })

    const second = await uploadThroughPage(page, {
      name: 'second.jpg',
      mimeType: 'image/jpeg',
      buffer: await halves(400, 400, colours.green, colours.green),
    })
    expect(second).not.toBe(first)
    await expectPicture(profile(page).locator('img'), second, { sharpScreens: true })
    await expectPicture(userMenuButton(page, name).locator('img'), second, { sharpScreens: false })
    expect(await statusOf(page.request, first)).toBe(404)
    expect(await statusOf(page.request, smallOf(first))).toBe(404)
    expectColour(await pixelAt(await fetchPicture(page.request, second, 256), 128, 128), colours.green, 'the new picture')
    await fetchPicture(page.request, smallOf(second), 64)

    await profile(page).getByRole('button', { name: en.remove }).click()
    await expect(toasts(page).getByText('Picture removed: your initials are shown again.', { exact: true })).toBeVisible()
    await expect(profile(page).getByRole('button', { name: en.choose }), 'focus after removing').toBeFocused()
    await expect(profile(page).getByRole('button', { name: en.remove })).toHaveCount(0)
    await expectInitials(dropZone(page), name, 'RR')
    await expectInitials(userMenuButton(page, name), name, 'RR')
    expect(await statusOf(page.request, second)).toBe(404)
    expect(await statusOf(page.request, smallOf(second))).toBe(404)
    expect(await accountImage(page.request)).toBeNull()
    await expectInitialsEverywhere(page, name, 'RR')
  })

  test('the picture is public: another account and a visitor without cookies load it', async ({
    page,
    context,
    browser,
    playwright,
    baseURL,
  }) => {
    await signedInAs(context, baseURL ?? '', 'Olga Owner')
    await page.goto('/account')
    const large = await uploadThroughPage(page, {
      name: 'owner.jpg',
      mimeType: 'image/jpeg',
      buffer: await halves(300, 300, colours.yellow, colours.blue),
    })
    const own = await fetchPicture(page.request, large, 256)

    const other: BrowserContext = await browser.newContext({ baseURL })
    const visitor = await playwright.request.newContext({ baseURL })
    try {
      await signedInAs(other, baseURL ?? '', 'Oscar Other')
      expect((await fetchPicture(other.request, large, 256)).equals(own)).toBe(true)
      await fetchPicture(other.request, smallOf(large), 64)

      expect((await visitor.storageState()).cookies).toEqual([])
      expect((await fetchPicture(visitor, large, 256)).equals(own)).toBe(true)
      await fetchPicture(visitor, smallOf(large), 64)
      // Reading is public; changing is not.
      const refused = await visitor.delete('/api/me/avatar', { headers: { Origin: baseURL ?? '' } })
      expect(refused.status()).toBe(401)
      expect(await statusOf(visitor, large)).toBe(200)
    } finally {
      await other.close()
      await visitor.dispose()
    }
  })

  test('"Download my data" saves a JSON copy with the picture and no session token', async ({
    page,
    context,
    baseURL,
  }) => {
    const email = await signedInAs(context, baseURL ?? '', 'Dana Data')
    await page.goto('/account')
    const large = await uploadThroughPage(page, {
      name: 'mine.jpg',
      mimeType: 'image/jpeg',
      buffer: await halves(300, 300, colours.black, colours.white),
    })

    const data = page.getByRole('region', { name: 'Your data', exact: true })
    const downloading = page.waitForEvent('download')
    await data.getByRole('button', { name: 'Download my data' }).click()
    const download = await downloading
    expect(download.suggestedFilename()).toMatch(/^lingua-data-\d{4}-\d{2}-\d{2}\.json$/)
    const text = await readFile(await download.path(), 'utf8')
    const copy = JSON.parse(text) as { format: string; account: { email: string; name: string }; picture: string | null }
    expect(copy.format).toBe('lingua-data-export/1')
    expect(copy.account.email).toBe(email)
    expect(copy.account.name).toBe('Dana Data')
    expect(copy.picture).toBe(large)

    const cookie = (await context.cookies()).find((candidate) => candidate.name === 'lingua.session_token')
    expect(cookie, 'the session cookie').toBeDefined()
    const token = decodeURIComponent(cookie?.value ?? '').split('.')[0] ?? ''
    expect(token.length).toBeGreaterThan(16)
    expect(text.includes(token), 'the session token is not in the copy').toBe(false)
    expect(text.includes(password), 'nor the password').toBe(false)
  })
})

test.describe('the administrator sees the picture', () => {
  // On a server of its own, whose first confirmed account is the administrator.
  let server: OwnServer | undefined

  test.beforeAll(async () => {
    server = await startOwnServer()
  })

  test.afterAll(async () => {
    await server?.stop()
  })

  function own(): OwnServer {
    if (!server) throw new Error('the server of this file did not start')
    return server
  }

  async function signUpConfirmed(context: BrowserContext, name: string): Promise<{ id: string; email: string }> {
    const { url } = own()
    const email = uniqueEmail(name)
    const response = await context.request.post(`${url}/api/auth/sign-up/email`, {
      headers: { Origin: url },
      data: { name, email, password },
    })
    expect(response.status(), await response.text()).toBe(200)
    const { user } = (await response.json()) as { user: { id: string } }
    const link = new URL(confirmPath(await waitForMail(email, subjects.confirm)), url)
    const token = encodeURIComponent(link.searchParams.get('token') ?? '')
    expect((await context.request.get(`${url}/api/auth/verify-email?token=${token}`)).status()).toBe(200)
    return { id: user.id, email }
  }

  test('in the people list and on the person’s page', async ({ page, context, browser }) => {
    const { url } = own()
    const adminContext = await browser.newContext()
    try {
      await signUpConfirmed(adminContext, 'Ada Admin')
      const personName = 'Pia Person'
      const person = await signUpConfirmed(context, personName)

      await page.goto(`${url}/account`)
      await expect(profile(page)).toBeVisible()
      const large = await uploadThroughPage(page, {
        name: 'pia.jpg',
        mimeType: 'image/jpeg',
        buffer: await halves(300, 300, colours.green, colours.red),
      })
      expect(large).toContain(`/api/avatars/${person.id}/`)

      const admin = await adminContext.newPage()
      await admin.goto(`${url}/admin/users`)
      await expect(mainHeading(admin)).toHaveText('People')
      const table = admin.getByRole('main').getByRole('table', { name: 'People' })
      const row = table.getByRole('row').filter({ has: admin.getByRole('link', { name: personName, exact: true }) })
      await expect(row).toHaveCount(1)
      await expectPicture(row.locator('img'), large, { sharpScreens: true })
      // The administrator has no picture: initials.
      const adminRow = table.getByRole('row').filter({ has: admin.getByRole('link', { name: 'Ada Admin', exact: true }) })
      await expect(adminRow.getByText('AA', { exact: true })).toBeVisible()
      await expect(adminRow.locator('img')).toHaveCount(0)

      await row.getByRole('link', { name: personName, exact: true }).click()
      await expect(admin).toHaveURL(new RegExp(`/admin/users/${person.id}$`))
      await expect(mainHeading(admin)).toHaveText(personName)
      await expectPicture(admin.getByRole('main').locator('header img'), large, { sharpScreens: true })
    } finally {
      await adminContext.close()
    }
  })
})

for (const lang of interfaceLanguages) {
  for (const mode of colourModes) {
    test(`the picture controls and the crop dialog have no WCAG violations, in ${lang === 'en' ? 'English' : 'Russian'}, ${mode} mode`, async ({
      page,
      context,
      baseURL,
    }) => {
      await checkAccessibility(page, context, baseURL ?? '', mode, lang)
    })
  }
}

async function checkAccessibility(
  page: Page,
  context: BrowserContext,
  baseURL: string,
  mode: ColourMode,
  lang: InterfaceLanguage,
) {
  const text = labels[lang]
  await signedInAs(context, baseURL, 'Axel Access')
  await prefer(page, mode, lang)
  await page.emulateMedia({ colorScheme: mode })
  await page.goto('/account')
  await settled(page, mode, lang)
  const part = profile(page, lang)
  await expect(part.getByText(text.picture, { exact: true })).toBeVisible()
  await expect(part.getByText(text.hint, { exact: true })).toBeVisible()
  await expect(part.getByRole('button', { name: text.choose })).toBeVisible()
  await expect(fileInput(page, lang)).toHaveAttribute('aria-label', text.picture)
  const report = new ViolationReport()
  await report.check(page, 'the picture controls')

  await chooseFile(page, { name: 'drawing.svg', mimeType: 'image/svg+xml', buffer: Buffer.from('<svg/>') }, lang)
  await expect(part.getByRole('alert')).toHaveText(text.typeRefused)
  await report.check(page, 'a refused file')

  await chooseFile(
    page,
    { name: 'halves.jpg', mimeType: 'image/jpeg', buffer: await halves(600, 300, colours.red, colours.blue) },
    lang,
  )
  const dialog = cropDialog(page, lang)
  await expect(cropFrame(page, lang)).toBeVisible()
  await expect(dialog.getByRole('button', { name: text.save })).toBeEnabled()
  await expect(dialog.getByRole('button', { name: text.cancel })).toBeVisible()
  await quiet(page)
  await report.check(page, 'the crop dialog')
  // A corner with focus.
  await topLeftCorner(page, lang).focus()
  await report.check(page, 'the crop dialog, a corner focused')

  await dialog.getByRole('button', { name: text.save }).click()
  await expect(dialog).toBeHidden()
  await expect(part.getByRole('button', { name: text.replace })).toBeVisible()
  await expect(part.getByRole('button', { name: text.remove })).toBeVisible()
  await expect(part.locator('img')).toHaveAttribute('src', /-64\.webp$/)
  // The pointer resting on the toast pauses its 5 s timer: axe must not meet it fading out.
  // (Its name is in the interface language: "Notifications (F8)", "Уведомления (F8)".)
  await page.getByRole('region', { name: /\(F8\)$/ }).locator('li').first().hover()
  await quiet(page)
  await report.check(page, 'the picture controls with a picture and the toast')
  report.expectNone()
}
