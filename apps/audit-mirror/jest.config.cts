module.exports = {
  displayName: 'audit-mirror',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/apps/audit-mirror',
};
