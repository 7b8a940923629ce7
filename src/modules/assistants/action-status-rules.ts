/** PLACEHOLDER until the assistants branch merges (it owns this file). */
export type ActionStatusRule = { action_status: 'interested' | 'scheduled' | 'transferred'; path: string; equals?: string | number | boolean };
export function actionStatusFromAnalysis(rules: ActionStatusRule[], analysis: Record<string, unknown>): ActionStatusRule['action_status'] | null {
  for (const rule of rules) {
    let value: unknown = analysis;
    for (const part of rule.path.split('.')) value = value && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
    if (rule.equals === undefined ? Boolean(value) : value === rule.equals) return rule.action_status;
  }
  return null;
}
