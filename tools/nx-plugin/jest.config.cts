module.exports = {
  displayName: 'tools',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/tools/nx-plugin',
};
