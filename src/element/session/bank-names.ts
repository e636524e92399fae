/**
 * Bank names for one invoice's session: the proxy's list of the service's names
 * (`GET /banks?currency=`, one read per session and currency), the bundled directory (loaded on
 * demand, for Russian and English names and when the proxy cannot answer) and the merchant's
 * `banks` overrides. Until they arrive the screen shows the code made readable.
 */
import type { CheckoutClient } from '../protocol-client.js';
import { readBanks } from '../protocol-client.js';

import type * as DirectoryModule from '../banks/directory.js';
import type { BankOverrides } from '../banks/directory.js';

export type { BankOverrides };

type Directory = typeof DirectoryModule;

/** Loads the bundled directory once per page. */
let directory: Promise<Directory> | undefined;
const loadDirectory = (): Promise<Directory> => (directory ??= import('../banks/directory.js'));

export class BankNames {
  readonly #changed: () => void;
  readonly #overrides: () => BankOverrides | undefined;
  #service = new Map<string, string>();
  #directory: Directory | undefined;
  #currency: string | undefined;

  constructor(changed: () => void, overrides: () => BankOverrides | undefined) {
    this.#changed = changed;
    this.#overrides = overrides;
  }

  /**
   * Starts loading the names for `currency` (once): the directory and the proxy's list. A
   * failed read leaves the directory's names; nothing is reported to the payer.
   */
  load(client: CheckoutClient, currency: string, signal: AbortSignal): void {
    if (this.#currency === currency) return;
    this.#currency = currency;
    void loadDirectory().then(
      (module) => {
        this.#directory = module;
        this.#changed();
      },
      () => undefined,
    );
    void readBanks(client, currency, signal).then(
      ({ value }) => {
        if (signal.aborted) return;
        this.#service = new Map(value.map((bank) => [bank.code, bank.name] as const));
        this.#changed();
      },
      () => undefined,
    );
  }

  /**
   * The name of `code` in `language`: the merchant's override, then in Russian the service's
   * name before the directory's, in other languages the directory's (the service names banks
   * in Russian) before the service's; undefined when none knows it.
   */
  name(code: string, language: string): string | undefined {
    const override = this.#overrides()?.[code];
    const mine = language === 'ru' ? override?.ru : (override?.en ?? override?.ru);
    if (mine) return mine;
    const service = this.#service.get(code);
    const bundled = this.#directory?.directoryName(code, language);
    return language === 'ru' ? (service ?? bundled) : (bundled ?? service);
  }

  /** The bank's lettermark colour: the merchant's, else the directory's; undefined until known (the lettermark picks one from the name). */
  color(code: string): string | undefined {
    const directory = this.#directory;
    const mine = this.#overrides()?.[code]?.color;
    return (directory && mine ? directory.hexColor(mine) : undefined) ?? directory?.findBank(code)?.color;
  }
}
