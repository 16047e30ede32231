import { useState } from 'react'
import { avatarSources } from '@/shared/avatars'
import { cn } from '@/client/lib/cn'
import { initials } from '@/client/lib/initials'

/** Avatar sizes in pixels (docs/product.md §6). */
const avatarSizes = {
  '3xs': 16,
  '2xs': 20,
  xs: 24,
  sm: 28,
  md: 32,
  lg: 36,
  xl: 40,
  '2xl': 44,
  '3xl': 48,
} as const

type AvatarSize = keyof typeof avatarSizes

export interface AvatarProps {
  /** The account's `image`: an uploaded picture (its size is chosen here) or a link. */
  src?: string | null
  alt: string
  size?: AvatarSize
  className?: string
}

type Status = 'loading' | 'loaded' | 'failed'

/**
 * The picture over the initials: hidden until it has loaded, dropped if it fails, so that the
 * initials show meanwhile and there is one picture for assistive technology at a time. Its own
 * state per `src` (keyed by the caller): a new picture starts loading again.
 */
function Picture({ sources, alt, px, initialsText }: { sources: { src: string; srcSet?: string }; alt: string; px: number; initialsText: string }) {
  const [status, setStatus] = useState<Status>('loading')
  return (
    <>
      {status !== 'failed' && (
        <img
          // A picture the browser had loaded before React attached its listeners (a cached one)
          // fires no `load` for it.
          ref={(img) => {
            if (img?.complete && img.naturalWidth > 0) setStatus('loaded')
          }}
          src={sources.src}
          srcSet={sources.srcSet}
          alt={alt}
          width={px}
          height={px}
          hidden={status !== 'loaded'}
          onLoad={() => setStatus('loaded')}
          onError={() => setStatus('failed')}
          className="size-full object-cover"
        />
      )}
      {status !== 'loaded' && <Initials alt={alt} text={initialsText} />}
    </>
  )
}

function Initials({ alt, text }: { alt: string; text: string }) {
  return (
    <span role="img" aria-label={alt} className="font-medium text-muted-foreground">
      {text}
    </span>
  )
}

/**
 * A round picture; without one (or while it loads, or when it fails) the initials of the alt
 * text. Radix's Avatar did the same with a context and two components (about 4 KB gzip on every
 * signed-in page, for the header's user menu).
 */
export function Avatar({ src, alt, size = 'md', className }: AvatarProps) {
  const px = avatarSizes[size]
  const sources = avatarSources(src, px)
  return (
    <span
      className={cn(
        'inline-flex shrink-0 items-center justify-center overflow-hidden rounded-full bg-muted align-middle select-none',
        className,
      )}
      style={{ width: px, height: px, fontSize: Math.max(8, Math.round(px * 0.4)) }}
    >
      {sources ? (
        <Picture key={sources.src} sources={sources} alt={alt} px={px} initialsText={initials(alt)} />
      ) : (
        <Initials alt={alt} text={initials(alt)} />
      )}
    </span>
  )
}
