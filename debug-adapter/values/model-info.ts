/**
 * The `modelInfo` request (extension-protocol.ts): the tf.LayersModel at the stop. First the model
 * whose method is under way (the outermost call frame whose `this` is a tf.LayersModel: model.fit's
 * own frames, below a custom layer's call), then a model held by a local of the frame asked (or the
 * top frame), then by the scopes of the frames below it, outermost last. The agent reads the
 * summary (agent/models.ts).
 */
import type { Protocol } from 'devtools-protocol';
import type { AgentClient } from '../cdp/agent-client.js';
import type { CdpConnection } from '../cdp/connection.js';
import type { ModelInfoArguments, ModelInfoResponseBody } from '../extension-protocol.js';

/** Scopes looked in for a model; the global scope is the whole process's, not the frame's. */
const SCOPES = new Set(['local', 'closure', 'module', 'script', 'block', 'catch']);

export async function modelInfo(
  args: Partial<ModelInfoArguments> | undefined,
  frames: readonly Protocol.Debugger.CallFrame[] | undefined,
  asked: Protocol.Debugger.CallFrame | undefined,
  cdp: CdpConnection,
  agent: AgentClient,
): Promise<ModelInfoResponseBody> {
  if (!frames) throw new Error('modelInfo works while the program is paused');
  if (args?.frameId !== undefined && !asked) throw new Error(`modelInfo: frame ${args.frameId} is not a frame of this stop`);
  for (const f of [...frames].reverse()) {
    if (!f.this.objectId) continue;
    const found = await summaryOf(agent, f.this.objectId, `\`this\` of ${frameName(f)} (its method is under way)`);
    if (found) return found;
  }
  const first = asked ?? frames[0];
  const order = first ? [first, ...frames.filter((f) => f !== first)] : [...frames];
  for (const f of order) {
    for (const scope of f.scopeChain) {
      if (!SCOPES.has(scope.type) || !scope.object.objectId) continue;
      const found = await inScope(cdp, agent, scope.object.objectId, `${scope.type === 'local' ? 'local' : scope.type} \`{name}\` of ${frameName(f)}`);
      if (found) return found;
    }
  }
  throw new Error('no tf.LayersModel is reachable from this stop: none is fitting or predicting on the stack, and no frame has one in scope');
}

async function summaryOf(agent: AgentClient, objectId: string, where: string): Promise<ModelInfoResponseBody | undefined> {
  return agent
    .callOn(
      objectId,
      function (a, w) {
        return a.modelSummary(this, w);
      },
      where,
    )
    .catch(() => undefined);
}

/** The first variable of a scope that holds a model. */
async function inScope(cdp: CdpConnection, agent: AgentClient, scopeId: string, where: string): Promise<ModelInfoResponseBody | undefined> {
  const props = await cdp.send('Runtime.getProperties', { objectId: scopeId, ownProperties: true }).catch(() => undefined);
  for (const p of props?.result ?? []) {
    const v = p.value;
    if (v?.type !== 'object' || v.subtype || !v.objectId) continue;
    const found = await summaryOf(agent, v.objectId, where.replace('{name}', p.name));
    if (found) return found;
  }
  return undefined;
}

function frameName(f: Protocol.Debugger.CallFrame): string {
  return f.functionName || '(anonymous)';
}
