import { ActionIcon, Button, Group, Paper, Select, Stack, Text, TextInput } from '@mantine/core';
import { ApiProblem } from '../../api/client';
import { ACTION_STATUSES, MATCHES, emptyRule, type Match, type RuleValues } from './model';

/** The 422 messages about rule `index` (loc body.action_status_rules.<index>[.field]), joined. */
function ruleErrors(error: unknown, index: number): string | undefined {
  if (!(error instanceof ApiProblem)) return undefined;
  const messages = error.fields
    .filter((f) => f.loc[0] === 'body' && f.loc[1] === 'action_status_rules' && String(f.loc[2]) === String(index))
    .map((f) => (f.loc.length > 3 ? `${f.loc.slice(3).join('.')}: ${f.msg}` : f.msg));
  return messages.length ? messages.join('; ') : undefined;
}

/** An error about the list as a whole (too many rules, not a list). */
function listError(error: unknown): string | undefined {
  if (!(error instanceof ApiProblem)) return undefined;
  return error.fields.find((f) => f.loc[0] === 'body' && f.loc[1] === 'action_status_rules' && f.loc.length === 2)?.msg;
}

interface Props {
  rules: RuleValues[];
  onChange: (rules: RuleValues[]) => void;
  error: unknown;
}

/** The assistant's action_status_rules: tried in order after each call; the first match sets the call's action status. */
export function RulesEditor({ rules, onChange, error }: Props) {
  const set = (i: number, patch: Partial<RuleValues>) => onChange(rules.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const whole = listError(error);
  return (
    <Stack gap="xs" role="group" aria-label="Action status rules">
      <Text fw={500} size="sm">Action status rules</Text>
      <Text size="xs" c="dimmed">
        After a call, the rules are tried in order against the vendor's post-call analysis; the first that matches sets the call's action status.
        The path is dotted, e.g. structuredData.interested (Vapi) or custom_analysis_data.appointment (Retell).
      </Text>
      {rules.length === 0 && <Text size="sm" c="dimmed">No rules: calls keep no action status unless the vendor reports a transfer.</Text>}
      {rules.map((rule, i) => {
        const n = i + 1;
        const problem = ruleErrors(error, i);
        return (
          <Paper key={i} withBorder p="xs" role="group" aria-label={`Rule ${n}`}>
            <Group align="end" gap="xs" wrap="wrap">
              <TextInput label={`Rule ${n} path`} required value={rule.path} onChange={(e) => set(i, { path: e.currentTarget.value })} w={220}
                error={problem ? true : undefined} placeholder="structuredData.interested" />
              <Select label={`Rule ${n} match`} data={MATCHES} value={rule.match} allowDeselect={false} w={220}
                onChange={(m) => set(i, { match: (m ?? 'truthy') as Match, value: m === 'boolean' ? 'true' : '' })} />
              {(rule.match === 'text' || rule.match === 'number') && (
                <TextInput label={`Rule ${n} value`} value={rule.value} onChange={(e) => set(i, { value: e.currentTarget.value })} w={140}
                  inputMode={rule.match === 'number' ? 'decimal' : undefined} />
              )}
              {rule.match === 'boolean' && (
                <Select label={`Rule ${n} value`} data={['true', 'false']} value={rule.value} allowDeselect={false} w={110} onChange={(v) => set(i, { value: v ?? 'true' })} />
              )}
              <Select label={`Rule ${n} action status`} data={ACTION_STATUSES} value={rule.action_status} allowDeselect={false} w={160}
                onChange={(v) => set(i, { action_status: (v ?? 'interested') as RuleValues['action_status'] })} />
              <ActionIcon variant="subtle" color="red" size="lg" aria-label={`Remove rule ${n}`} onClick={() => onChange(rules.filter((_, j) => j !== i))}>×</ActionIcon>
            </Group>
            {problem && <Text c="red" size="sm" role="alert" mt={4}>Rule {n}: {problem}</Text>}
          </Paper>
        );
      })}
      {whole && <Text c="red" size="sm" role="alert">{whole}</Text>}
      <Group>
        <Button variant="default" size="xs" onClick={() => onChange([...rules, emptyRule()])}>Add rule</Button>
      </Group>
    </Stack>
  );
}
