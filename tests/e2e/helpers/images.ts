import sharp from 'sharp'
import { expect } from './fixtures'

// Pictures for the profile-picture journeys (picture.spec.ts), made with sharp in colours whose
// place tells which part of a picture the server kept, and the checks of what came back.

type Rgb = readonly [number, number, number]

export const colours = {
  red: [220, 40, 40],
  blue: [40, 70, 220],
  green: [40, 180, 70],
  yellow: [240, 210, 40],
  black: [20, 20, 20],
  white: [245, 245, 245],
} as const satisfies Record<string, Rgb>

export interface FilePayload {
  name: string
  mimeType: string
  buffer: Buffer
}

/** A `width` × `height` JPEG, its left half one colour and its right half another. */
export function halves(width: number, height: number, left: Rgb, right: Rgb) {
  return sharp({ create: { width, height, channels: 3, background: rgb(left) } })
    .composite([
      { input: { create: { width: width / 2, height, channels: 3, background: rgb(right) } }, left: width / 2, top: 0 },
    ])
    .jpeg({ quality: 95 })
    .toBuffer()
}

/** A square picture of four coloured quarters: top left, top right, bottom left, bottom right. */
export async function quarters(size: number, [topLeft, topRight, bottomLeft, bottomRight]: readonly [Rgb, Rgb, Rgb, Rgb]) {
  const half = size / 2
  const quarter = (background: Rgb, left: number, top: number) => ({
    input: { create: { width: half, height: half, channels: 3 as const, background: rgb(background) } },
    left,
    top,
  })
  return sharp({ create: { width: size, height: size, channels: 3, background: rgb(topLeft) } })
    .composite([quarter(topRight, half, 0), quarter(bottomLeft, 0, half), quarter(bottomRight, half, half)])
    .png()
    .toBuffer()
}

/** Noise: a PNG that hardly compresses, so its size is about width × height × 3 bytes. */
export function noise(width: number, height: number) {
  const noisy = { type: 'gaussian', mean: 128, sigma: 80 } as const
  return sharp({ create: { width, height, channels: 3, background: rgb(colours.black), noise: noisy } })
    .png({ compressionLevel: 0 })
    .toBuffer()
}

const rgb = ([r, g, b]: Rgb) => ({ r, g, b })

/** The colour of the pixel at (x, y) of an image file. */
export async function pixelAt(file: Buffer, x: number, y: number): Promise<Rgb> {
  const { data, info } = await sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  const at = (y * info.width + x) * info.channels
  return [data[at] ?? -1, data[at + 1] ?? -1, data[at + 2] ?? -1]
}

/** Lossy WebP moves colours a little, never by this much. */
export function expectColour(actual: Rgb, expected: Rgb, where: string) {
  const off = Math.max(...actual.map((channel, index) => Math.abs(channel - (expected[index] ?? 0))))
  expect(off, `${where}: rgb(${actual.join(', ')}) is near rgb(${expected.join(', ')})`).toBeLessThan(40)
}
