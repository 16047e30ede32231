export declare const chromePath: string
export declare const chromeFlags: readonly string[]
