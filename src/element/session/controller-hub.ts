import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { SessionHost } from './session-types.js';

/**
 * A reactive controller of the element that hosts controllers of its own (tasks, timers,
 * listeners): it hands the element's lifecycle down to them and their update requests up to
 * the element. The session is one; removing it from the element releases all of them.
 */
export class ControllerHub implements ReactiveController, ReactiveControllerHost {
  readonly #controllers = new Set<ReactiveController>();
  protected readonly host: SessionHost;

  constructor(host: SessionHost) {
    this.host = host;
  }

  addController(controller: ReactiveController): void {
    this.#controllers.add(controller);
  }

  removeController(controller: ReactiveController): void {
    this.#controllers.delete(controller);
  }

  requestUpdate(): void {
    this.host.requestUpdate();
  }

  get updateComplete(): Promise<boolean> {
    return this.host.updateComplete;
  }

  hostConnected(): void {
    for (const controller of this.#controllers) controller.hostConnected?.();
  }

  hostDisconnected(): void {
    for (const controller of this.#controllers) controller.hostDisconnected?.();
  }

  hostUpdate(): void {
    for (const controller of this.#controllers) controller.hostUpdate?.();
  }

  hostUpdated(): void {
    for (const controller of this.#controllers) controller.hostUpdated?.();
  }
}
