module.exports = {
  displayName: 'organizations',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/apps/organizations',
};
