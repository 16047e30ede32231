import type { Browser, LaunchOptions } from '@playwright/test'

export declare const chromePath: string
export declare const testChromePath: string
export declare const chromeFlags: readonly string[]
export declare function desktopUserAgent(chromeVersion?: string): string
export declare function launchChromium(options?: LaunchOptions): Promise<Browser>
