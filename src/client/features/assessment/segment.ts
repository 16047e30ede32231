/**
 * A segment of a bar not reached (a level, a skill to come): outlined, so that the scale shows
 * against the card in both colour modes (WCAG 1.4.11: 3:1 for what a graphic needs to be read).
 */
export const emptySegment = 'bg-muted ring-1 ring-inset ring-muted-foreground/70'
