// The dispatch every harness's mapper shares: each event counted in the fidelity account, a subagent's event
// kept out of the conversation, context never written, and the rest handed to the mapper's method for its type.
// An agent's mapper extends it and writes only those methods.
import {
  callFor, type AssistantEvent, type CompactionEvent, type GenericEvent, type MonitorEndEvent, type MonitorEvent,
  type ThinkingEvent, type ToolCallEvent, type ToolResultEvent, type UserEvent,
} from '../events.js';
import type { FidelityAccount } from './fidelity.js';
import { EventRejected } from './types.js';

/**
 * The call a writer of `format` writes for `event` (`callFor`: its own agent's name and arguments when it came
 * from that agent), with the arguments as JSON. Arguments nested too deeply for JSON.stringify reject the
 * event (EventRejected), before the mapper changes any state.
 */
export function writableCall(event: ToolCallEvent, format: string): { name: string; arguments: Record<string, unknown>; json: string } {
  const call = callFor(event, format);
  try {
    return { name: call.name, arguments: call.arguments, json: JSON.stringify(call.arguments) };
  } catch (error) {
    throw new EventRejected(`arguments cannot be serialised: ${(error as Error).message}`);
  }
}

/** A mapper of generic events to one format's records; `R` is what mapping one event gives the harness. */
export abstract class EventMapper<R> {
  /** What this session kept of the events it was given (lib/session/fidelity.ts). */
  abstract readonly fidelity: FidelityAccount;

  /** Map one event (counted in the account as read, and as dropped when it is not written). */
  map(event: GenericEvent): R {
    this.fidelity.readEvent(event);
    if (event.agent_id !== undefined) {
      this.fidelity.dropEvent(event, 'belongs to a subagent session');
      return this.subagent();
    }
    switch (event.type) {
      case 'user': return this.user(event);
      case 'assistant': return this.assistant(event);
      case 'thinking': return this.thinking(event);
      case 'tool_call': return this.toolCall(event);
      case 'tool_result': return this.toolResult(event);
      case 'monitor_event': return this.monitorEvent(event);
      case 'monitor_end': return this.monitorEnd(event);
      case 'compaction': return this.compaction(event);
      // Context the model saw that nobody typed (another CLI's system records, read back by `read --events`):
      // each CLI makes its own again on resume, so writing it would duplicate it; accepted and not written.
      case 'context':
        this.fidelity.drop('context', 'the CLI makes its own again');
        return this.nothing();
    }
  }

  /** A subagent's event (`agent_id`): it belongs to its own session, never to this conversation's turns. */
  protected abstract subagent(): R;
  /** The result of an event that writes nothing and says nothing. */
  protected abstract nothing(): R;
  protected abstract user(event: UserEvent): R;
  protected abstract assistant(event: AssistantEvent): R;
  protected abstract thinking(event: ThinkingEvent): R;
  protected abstract toolCall(event: ToolCallEvent): R;
  protected abstract toolResult(event: ToolResultEvent): R;
  protected abstract monitorEvent(event: MonitorEvent): R;
  protected abstract monitorEnd(event: MonitorEndEvent): R;
  protected abstract compaction(event: CompactionEvent): R;
}
