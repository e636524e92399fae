/** The types of scripts/node-lines.js (the tests import it). */
export declare const NODE_LINES: string[];
export declare const MAIN_LINE: string;
export declare const nodeBinDir: (version: string) => string;
export declare const nodeBinary: (version: string) => string | Error;
