import type { ComponentProps } from 'react'
import { cn } from '@/client/lib/cn'

const variants = {
  primary: 'bg-primary text-primary-foreground hover:bg-primary-hover',
  secondary: 'bg-secondary text-secondary-foreground hover:opacity-90',
  outline: 'border border-input bg-background hover:bg-muted',
  ghost: 'hover:bg-muted',
  destructive: 'bg-error text-destructive-foreground hover:opacity-90',
} as const

const sizes = {
  sm: 'h-8 px-3 text-sm',
  md: 'h-10 px-4 text-sm',
  lg: 'h-12 px-6 text-base',
  icon: 'size-10',
} as const

export interface ButtonLook {
  variant?: keyof typeof variants
  size?: keyof typeof sizes
  className?: string
}

/**
 * The classes of a button; a link that should look like one takes them directly
 * (`<Link className={buttonClass({ variant: 'outline' })}>`), which keeps a slot component off the
 * first page.
 */
export function buttonClass({ variant = 'primary', size = 'md', className }: ButtonLook = {}): string {
  return cn(
    'inline-flex shrink-0 items-center justify-center gap-2 rounded-md font-medium whitespace-nowrap transition-colors disabled:pointer-events-none disabled:opacity-50',
    variants[variant],
    sizes[size],
    className,
  )
}

export interface ButtonProps extends ComponentProps<'button'>, ButtonLook {}

export function Button({ variant, size, className, type, ...props }: ButtonProps) {
  return <button type={type ?? 'button'} className={buttonClass({ variant, size, className })} {...props} />
}
