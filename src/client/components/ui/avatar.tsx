import { Avatar as AvatarPrimitive } from 'radix-ui'
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

/** A round picture; without one (or while it loads) the initials of the alt text. */
export function Avatar({ src, alt, size = 'md', className }: AvatarProps) {
  const px = avatarSizes[size]
  const sources = avatarSources(src, px)
  return (
    <AvatarPrimitive.Root
      className={cn(
        'inline-flex shrink-0 items-center justify-center overflow-hidden rounded-full bg-muted align-middle select-none',
        className,
      )}
      style={{ width: px, height: px, fontSize: Math.max(8, Math.round(px * 0.4)) }}
    >
      {sources && (
        <AvatarPrimitive.Image
          src={sources.src}
          srcSet={sources.srcSet}
          alt={alt}
          width={px}
          height={px}
          className="size-full object-cover"
        />
      )}
      <AvatarPrimitive.Fallback
        role="img"
        aria-label={alt}
        className="font-medium text-muted-foreground"
      >
        {initials(alt)}
      </AvatarPrimitive.Fallback>
    </AvatarPrimitive.Root>
  )
}
